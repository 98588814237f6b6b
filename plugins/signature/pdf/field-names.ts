import type { PDFDocument } from 'pdf-lib'
import { listFields } from './signature-fields.ts'

/** Viewers and validators identify fields by /T, so two fields must never share one. */
export function uniqueFieldName(doc: PDFDocument, base: string, reserved: Iterable<string> = []): string {
  const taken = new Set([...listFields(doc).map((field) => field.name), ...reserved])
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`)) return `${base} ${n}`
}
