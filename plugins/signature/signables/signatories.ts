import type { RegisteredTemplate } from '../contracts/pdf-template.ts'
import type { SlotDefinition } from '../contracts/slot-definition.ts'

/** A person bound to a slot of one record: the user the slot's `signatory` names on that record. */
export interface Signatory {
  slot: string
  label: string
  userId: string | null
  role: string | null
  order: number | null
}

/** The user id a slot's `signatory` gives for a record: its field of that name, or what its function returns. */
function signatoryId(slot: SlotDefinition, record: unknown): string | null {
  const value = typeof slot.signatory === 'function' ? slot.signatory(record) : (record as Record<string, unknown>)[slot.signatory!]
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null
}

/** The record's signatories, in slot order; slots without a `signatory` binding are not listed. */
export function signatoriesOf(template: RegisteredTemplate, record: unknown): Signatory[] {
  return template.slots()
    .filter((slot) => slot.signatory !== undefined)
    .map((slot) => ({
      slot: slot.key,
      label: slot.label,
      userId: signatoryId(slot, record),
      role: slot.role ?? null,
      order: slot.order ?? null,
    }))
}

/** True when the user must sign at least one slot of the record. */
export function isSignatory(template: RegisteredTemplate, record: unknown, userId: string): boolean {
  return signatoriesOf(template, record).some((s) => s.userId === userId)
}
