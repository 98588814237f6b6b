import { ERR_VALIDATION } from '../../../core/http/errors.ts'
import type { SigningSessionRequestTable } from './session-tables.ts'

export type DocumentFieldType = 'signature' | 'date' | 'name' | 'initials' | 'text'

/** One field of a document session's request, as kept in its `fields` column. */
export interface RequestField {
  /** The API's id ("f3": the third field of the create body). */
  id: string
  type: DocumentFieldType
  /** The PDF field's /T. */
  name: string
  page: number
  x: number
  y: number
  width: number
  height: number
  label: string | null
}

/** The request's fields; none for a template session's request (only its signature field). */
export function requestFields(request: Pick<SigningSessionRequestTable, 'fields'>): RequestField[] {
  return request.fields ? (JSON.parse(request.fields) as RequestField[]) : []
}

const MAX_TEXT = 200

/**
 * What the signer's update writes into their form fields: the signing day and their name are the
 * app's to fill; initials and text come from the signer (initials default to the name's).
 */
export function fieldValues(fields: readonly RequestField[], input: { name: string; day: string; values: Record<string, string> }): Array<{ name: string; value: string }> {
  const known = new Set(fields.filter((f) => f.type === 'initials' || f.type === 'text').map((f) => f.id))
  const unknown = Object.keys(input.values).filter((id) => !known.has(id))
  if (unknown.length) throw ERR_VALIDATION(`body.fields: no initials or text field ${unknown.map((id) => JSON.stringify(id)).join(', ')} of this signer`)
  const initials = input.name.split(/\s+/).filter(Boolean).map((w) => w[0]!.toUpperCase()).join('')
  return fields.flatMap((f) => {
    switch (f.type) {
      case 'date': return [{ name: f.name, value: input.day }]
      case 'name': return [{ name: f.name, value: input.name }]
      case 'initials': return [{ name: f.name, value: (input.values[f.id] ?? initials).slice(0, MAX_TEXT) }]
      case 'text': return input.values[f.id] ? [{ name: f.name, value: input.values[f.id]!.slice(0, MAX_TEXT) }] : []
      default: return []
    }
  })
}
