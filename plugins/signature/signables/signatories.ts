import type { PdfTemplate } from '../contracts/pdf-template.ts'

/** A person bound to a slot of one record: the user whose id is in the slot's `signatory` field. */
export interface Signatory {
  slot: string
  label: string
  userId: string | null
  role: string | null
  order: number | null
}

/** The record's signatories, in slot order; slots without a `signatory` binding are not listed. */
export function signatoriesOf(template: PdfTemplate, record: unknown): Signatory[] {
  return template.slots()
    .filter((slot) => slot.signatory !== undefined)
    .map((slot) => {
      const value = (record as Record<string, unknown>)[slot.signatory!]
      return {
        slot: slot.key,
        label: slot.label,
        userId: typeof value === 'string' || typeof value === 'number' ? String(value) : null,
        role: slot.role ?? null,
        order: slot.order ?? null,
      }
    })
}

/** True when the user must sign at least one slot of the record. */
export function isSignatory(template: PdfTemplate, record: unknown, userId: string): boolean {
  return signatoriesOf(template, record).some((s) => s.userId === userId)
}
