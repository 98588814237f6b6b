import type { RegisteredTemplate } from '../contracts/pdf-template.ts'
import type { SlotDefinition } from '../contracts/slot-definition.ts'
import { ERR_NOT_SIGNATORY, ERR_SIGNS_ANOTHER_SLOT } from '../errors.ts'
import { signatoriesOf } from './signatories.ts'

// Who may sign which slot of one document. A slot bound to a signatory is for that user only; an
// unbound slot is for anyone who may see the record, but one person signs one slot of a document:
// nobody signs as `employee` and witnesses too. A slot's `signerMaySignOtherSlots` lifts that.

/** Two slots may have the same signer only when one of them says so. */
export function maySameSignerSign(a: SlotDefinition, b: SlotDefinition): boolean {
  return a.key === b.key || a.signerMaySignOtherSlots || b.signerMaySignOtherSlots
}

/** Slots of the record bound to this user. */
function boundTo(template: RegisteredTemplate, record: unknown, userId: string): string[] {
  return signatoriesOf(template, record).filter((s) => s.userId === userId).map((s) => s.slot)
}

/**
 * Slot keys the user may fill on this record, in slot order. `signedSlots`: the slots the user has
 * already signed on it (what they sign counts as much as what they are bound to). The caller has
 * already checked that the user may see the record.
 */
export function slotsUserMaySign(template: RegisteredTemplate, record: unknown, userId: string, signedSlots: readonly string[]): string[] {
  const slots = template.slots()
  const bound = boundTo(template, record, userId)
  const theirs = slots.filter((s) => bound.includes(s.key) || signedSlots.includes(s.key))
  return slots
    .filter((slot) => slot.signatory !== undefined ? bound.includes(slot.key) : theirs.every((other) => maySameSignerSign(slot, other)))
    .map((slot) => slot.key)
}

/**
 * Refuses a signing of `requested` slots: 403 ERR_NOT_SIGNATORY for a slot bound to someone else,
 * 403 ERR_SIGNS_ANOTHER_SLOT for an unbound slot while the user signs (or is bound to) another
 * slot, or for two slots in one signing that may not share a signer. Unknown slot keys are left to
 * the placement check, which names them.
 */
export function assertMaySign(template: RegisteredTemplate, record: unknown, userId: string, signedSlots: readonly string[], requested: readonly string[]): void {
  const slots = new Map(template.slots().map((s) => [s.key, s]))
  const allowed = new Set(slotsUserMaySign(template, record, userId, signedSlots))
  const asked = [...new Set(requested)].map((key) => slots.get(key)).filter((s): s is SlotDefinition => s !== undefined)
  for (const slot of asked) {
    if (allowed.has(slot.key)) continue
    if (slot.signatory !== undefined) throw ERR_NOT_SIGNATORY(`The slot ${JSON.stringify(slot.key)} of this record is to be signed by someone else`)
    throw ERR_SIGNS_ANOTHER_SLOT(`You sign another slot of this document; the slot ${JSON.stringify(slot.key)} is for someone else`)
  }
  for (const [i, a] of asked.entries()) {
    const clash = asked.slice(i + 1).find((b) => !maySameSignerSign(a, b))
    if (clash) throw ERR_SIGNS_ANOTHER_SLOT(`One person may not sign both ${JSON.stringify(a.key)} and ${JSON.stringify(clash.key)} of this document`)
  }
}

/**
 * The two rules of a session's signers, as messages for a 422: an explicit signer of a slot the
 * record binds must be that signatory, and one person signs one slot unless a slot allows more.
 */
export function sessionSignerProblems(template: RegisteredTemplate, record: unknown, signers: ReadonlyArray<{ slot: SlotDefinition; userId: string }>) {
  const bound = new Map(signatoriesOf(template, record).map((s) => [s.slot, s.userId]))
  const notSignatory = signers
    .filter(({ slot, userId }) => bound.get(slot.key) != null && bound.get(slot.key) !== userId)
    .map(({ slot, userId }) => `signers: the record binds the slot ${JSON.stringify(slot.key)} to another user than ${JSON.stringify(userId)}`)
  const repeated: string[] = []
  for (const [i, a] of signers.entries()) {
    for (const b of signers.slice(i + 1)) {
      if (a.userId === b.userId && !maySameSignerSign(a.slot, b.slot)) {
        repeated.push(`signers: ${JSON.stringify(a.userId)} may not sign both ${JSON.stringify(a.slot.key)} and ${JSON.stringify(b.slot.key)}`)
      }
    }
  }
  return { notSignatory, repeated }
}
