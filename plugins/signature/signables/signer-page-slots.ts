import type { RegisteredTemplate } from '../contracts/pdf-template.ts'
import { ERR_ALREADY_SIGNED_IN_SESSION, ERR_NOT_SIGNATORY } from '../errors.ts'
import { latestBySlot, slotsOf, type SignedVersion } from './signed-versions.ts'
import { assertSigningAgainHasAReason } from './signing-again.ts'
import { assertMaySign, slotsUserMaySign } from './slot-signers.ts'

// What the signer page may sign of a record, decided once for hiding ("Sign", "Sign again" in My
// signatures, the slots of the page) and for refusing (finalize).
//
// The signer page signs a fresh rendering of the record on its own. That is sound for a slot
// signed before on the signer page (the new version replaces a document that held only that
// signing), but not for a slot signed in a signing session: its signature is one of several in
// the session's certified document, and a filled field there cannot be filled again (DocMDP P=2
// allows signing only the empty fields created at freeze time). A fresh copy would be a "new
// version" silently without the other signers, so it is refused: a new session is the way.

/** Slots whose latest signing lives in a session's document. */
function signedInSession(versions: readonly SignedVersion[]): Set<string> {
  return new Set([...latestBySlot(versions).values()].filter((v) => v.inSession).map((v) => v.slot))
}

/** Slot keys the user may sign on the signer page now, in slot order (empty: offer nothing). */
export function signerPageSlots(template: RegisteredTemplate, record: unknown, userId: string, versions: readonly SignedVersion[]): string[] {
  const inSession = signedInSession(versions)
  return slotsUserMaySign(template, record, userId, slotsOf(versions, userId)).filter((slot) => !inSession.has(slot))
}

function refusedInSession(template: RegisteredTemplate, slots: readonly string[]) {
  // The slots' labels: people read "Employee", not a slot key.
  const label = (key: string) => template.slots().find((s) => s.key === key)?.label ?? key
  const which = slots.map((s) => `"${label(s)}"`).join(', ')
  return ERR_ALREADY_SIGNED_IN_SESSION(`${which} ${slots.length === 1 ? 'was' : 'were'} signed in a signing session, in one document with the other signatures. Signing again here would make a copy without them: send the record for signature again (a new session) instead`)
}

/** Why the signer page has nothing for the user on this record: 409 when it was all signed in a session, else 403. */
export function nothingToSignError(template: RegisteredTemplate, record: unknown, userId: string, versions: readonly SignedVersion[]) {
  const inSession = signedInSession(versions)
  const theirs = slotsUserMaySign(template, record, userId, slotsOf(versions, userId)).filter((slot) => inSession.has(slot))
  return theirs.length ? refusedInSession(template, theirs) : ERR_NOT_SIGNATORY('You have no slot to sign on this record')
}

/**
 * Refuses a signing of `requested` slots on the signer page: 403 when the slot is not the user's
 * (slot-signers.ts), 409 ERR_ALREADY_SIGNED_IN_SESSION when it was signed in a session, 409
 * ERR_ALREADY_SIGNED when signed before here and no reason is given (signing-again.ts).
 */
export function assertSignerPageMaySign(template: RegisteredTemplate, record: unknown, userId: string, versions: readonly SignedVersion[], requested: readonly string[], reason: string | undefined): void {
  assertMaySign(template, record, userId, slotsOf(versions, userId), requested)
  const inSession = signedInSession(versions)
  const again = [...new Set(requested)].filter((slot) => inSession.has(slot))
  if (again.length) throw refusedInSession(template, again)
  assertSigningAgainHasAReason(versions, requested, reason)
}
