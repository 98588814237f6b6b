import { z } from 'zod'
import { ERR_VALIDATION } from '../../../core/http/errors.ts'
import type { FieldIssue } from '../../../core/http/validate.ts'
import type { PageSize } from './documents.ts'

export const MAX_DOCUMENT_SIGNERS = 20
export const MAX_DOCUMENT_FIELDS = 100

const coordinate = z.number().finite().min(0).max(100_000)

/** One field placed on an uploaded document, for the signer at index `signer`: a session's body and a saved template take the same. */
export const documentFieldSchema = z.strictObject({
  signer: z.number().int().min(0),
  type: z.enum(['signature', 'date', 'name', 'initials', 'text']),
  page: z.number().int().min(1),
  x: coordinate, y: coordinate,
  width: z.number().finite().min(8).max(100_000), height: z.number().finite().min(8).max(100_000),
  label: z.string().trim().min(1).max(80).optional(),
})

export type DocumentField = z.output<typeof documentFieldSchema>

/** Each field names a signer and lies on a page; each signer has a signature field. 400 naming every path. */
export function assertFieldsValid(input: { signers: readonly unknown[]; fields: readonly DocumentField[] }, pages: PageSize[]): void {
  const issues: FieldIssue[] = []
  const add = (path: string, message: string) => issues.push({ path: `body.${path}`, message })
  input.fields.forEach((f, i) => {
    if (f.signer >= input.signers.length) add(`fields.${i}.signer`, `no signer ${f.signer} (there are ${input.signers.length})`)
    const page = pages.find((p) => p.page === f.page)
    if (!page) add(`fields.${i}.page`, `the document has ${pages.length} page(s)`)
    // A field must lie inside its page as displayed (a rounding's slack on the far edges).
    else if (f.x + f.width > page.width + 0.01 || f.y + f.height > page.height + 0.01) add(`fields.${i}`, `the field leaves page ${f.page} (${page.width} x ${page.height} pt)`)
  })
  input.signers.forEach((_, index) => {
    if (!input.fields.some((f) => f.signer === index && f.type === 'signature')) add(`signers.${index}`, 'each signer needs at least one signature field')
  })
  if (issues.length) throw ERR_VALIDATION(issues.map((i) => `${i.path}: ${i.message}`).join('; '), { details: { issues } })
}
