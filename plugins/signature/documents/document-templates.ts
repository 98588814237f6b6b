import { z } from 'zod'
import { assertPermission } from '../../../core/access/assert-permission.ts'
import { requireUser } from '../../../core/auth/require-user.ts'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { ERR_VALIDATION } from '../../../core/http/errors.ts'
import { parseInput } from '../../../core/http/validate.ts'
import type { Disk } from '../../../core/storage/disk.ts'
import { ERR_TEMPLATE_EXISTS } from '../errors.ts'
import { TEMPLATES_CREATE_PERMISSION } from '../permissions.ts'
import type { PdfTemplateRegistry } from '../registry/pdf-template-registry.ts'
import { MAX_KEY_LENGTH } from '../templates/template-key.ts'
import { assertFieldsValid, documentFieldSchema, MAX_DOCUMENT_FIELDS, MAX_DOCUMENT_SIGNERS, type DocumentField } from './document-fields.ts'
import { DocumentPdfTemplate } from './document-pdf-template.ts'
import type { DocumentRepository } from './document-repository.ts'
import type { Documents, PageSize } from './documents.ts'
import type { DocumentTemplateTable } from './documents-tables.ts'

const saveSchema = z.strictObject({
  name: z.string().trim().min(1).max(80),
  /** The signers' roles, in signing order ("Employee", "HR"); default "Signer 1", "Signer 2", ... */
  signers: z.array(z.strictObject({ role: z.string().trim().min(1).max(80) })).min(1).max(MAX_DOCUMENT_SIGNERS).optional(),
  fields: z.array(documentFieldSchema).min(1).max(MAX_DOCUMENT_FIELDS),
})

export interface DocumentTemplateJson {
  key: string
  label: string
  document: { id: string; filename: string; pages: PageSize[] }
  signers: Array<{ role: string }>
  fields: DocumentField[]
  createdAt: string
}

/** The key a name gives: lower-case words joined by '-' ("NDA (2026)" -> "nda-2026"); '' when it has no letter or digit. */
export function templateKeyOf(name: string): string {
  return name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, MAX_KEY_LENGTH).replace(/-+$/, '')
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string })?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

/**
 * Documents saved as templates (issue 38, item 6): the registry's runtime way, from the UI. A row
 * keeps the document and its fields by role; every instance registers the rows at boot, and a
 * session from one reads the row (so an instance that booted before the save can start it too).
 */
export class DocumentTemplates {
  constructor(readonly deps: { repository: DocumentRepository; documents: Documents; registry: PdfTemplateRegistry; disk: Disk; now?: () => Date }) {}

  async save(user: PublicUser | null | undefined, documentId: string, body: unknown): Promise<DocumentTemplateJson> {
    const creator = requireUser(user)
    assertPermission(this.deps.documents.deps.policy, creator, TEMPLATES_CREATE_PERMISSION)
    const input = parseInput(saveSchema, body, 'body')
    const key = templateKeyOf(input.name)
    if (!key) throw ERR_VALIDATION('body.name: a name needs a letter or a digit', { details: { issues: [{ path: 'body.name', message: 'a name needs a letter or a digit' }] } })
    // The creator's own document, or one they may read as any: else 404, as for an unknown id.
    const document = await this.deps.documents.visible(creator, documentId)
    const count = input.signers?.length ?? Math.max(...input.fields.map((f) => f.signer)) + 1
    const roles = input.signers?.map((s) => s.role) ?? Array.from({ length: count }, (_, i) => `Signer ${i + 1}`)
    assertFieldsValid({ signers: roles, fields: input.fields }, JSON.parse(document.pages) as PageSize[])
    if (this.deps.registry.has(key)) throw ERR_TEMPLATE_EXISTS(`A template with the key ${JSON.stringify(key)} exists already: choose another name`)
    const row: DocumentTemplateTable = {
      key, label: input.name, document_id: document.id, roles: JSON.stringify(roles), fields: JSON.stringify(input.fields),
      created_by: creator.id, created_at: (this.deps.now?.() ?? new Date()).toISOString(),
    }
    try {
      await this.deps.repository.insertTemplate(row)
    } catch (error) {
      // Saved meanwhile here or by another instance.
      if (isUniqueViolation(error)) throw ERR_TEMPLATE_EXISTS(`A template with the key ${JSON.stringify(key)} exists already: choose another name`)
      throw error
    }
    this.deps.registry.register(new DocumentPdfTemplate(row, document.document_key, this.deps.disk), 'runtime')
    return templateJson(row, document)
  }

  /** Every saved template, for whoever may create sessions (the New document page lists them). */
  async list(): Promise<DocumentTemplateJson[]> {
    const rows = await this.deps.repository.templates()
    return rows.map((row) => templateJson(row, { id: row.document_id, filename: row.filename, pages: row.pages }))
  }

  /** At boot: every saved template into the registry, unless config or code declared its key (theirs win). */
  async registerSaved(): Promise<number> {
    let count = 0
    for (const row of await this.deps.repository.templates()) {
      if (this.deps.registry.has(row.key)) continue
      this.deps.registry.register(new DocumentPdfTemplate(row, row.document_key, this.deps.disk), 'runtime')
      count++
    }
    return count
  }
}

function templateJson(row: DocumentTemplateTable, document: { id: string; filename: string; pages: string }): DocumentTemplateJson {
  return {
    key: row.key, label: row.label,
    document: { id: document.id, filename: document.filename, pages: JSON.parse(document.pages) as PageSize[] },
    signers: (JSON.parse(row.roles) as string[]).map((role) => ({ role })),
    fields: JSON.parse(row.fields) as DocumentField[],
    createdAt: row.created_at,
  }
}
