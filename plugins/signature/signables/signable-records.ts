import { defaultSignableTitle, type TemplateLookup } from '../contracts/has-pdf-template.ts'
import { isSignable, type Signable } from '../contracts/signable.ts'
import type { RecordSource, SignableRecord, SignableSource } from '../contracts/signable-source.ts'

/**
 * The host's records as the plugin uses them: plain records become Signable, records that already
 * are Signable pass through unchanged. The one place a plain record gets its id, title and PDF.
 */
export function signableRecords(templates: TemplateLookup, source: RecordSource): SignableSource {
  return {
    async forTemplate(templateKey) {
      return (await source.forTemplate(templateKey)).map((record) => asSignable(templates, templateKey, record))
    },
    async find(templateKey, id) {
      const record = await source.find(templateKey, id)
      return record === null ? null : asSignable(templates, templateKey, record)
    },
  }
}

/**
 * A plain record of a template as a Signable: its fields copied (the view and the signatories read
 * them), id -> getSignableId, title -> getSignableTitle (default "<label> #<id>"), and the template's
 * renderFor() of the record as its PDF. The template is looked up at call time, as HasPdfTemplate
 * does, so a template replaced later is the one used. Something with no usable id is returned as
 * it is, and refused where a Signable is required (ERR_RECORD_NOT_SIGNABLE).
 */
export function asSignable(templates: TemplateLookup, templateKey: string, record: SignableRecord | Signable): Signable {
  if (isSignable(record) || !hasId(record)) return record as Signable
  const id = String(record.id)
  const signable: Signable = {
    ...record,
    getSignableId: () => id,
    getSignableTitle: () => record.title ?? defaultSignableTitle(templates.get(templateKey), id),
    getSignablePdfPath: () => templates.get(templateKey).renderFor(signable),
  }
  return signable
}

function hasId(record: unknown): record is SignableRecord {
  const id = (record as { id?: unknown } | null)?.id
  return (typeof id === 'string' && id !== '') || (typeof id === 'number' && Number.isFinite(id))
}
