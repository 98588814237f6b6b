import { ERR_ALREADY_SIGNED } from '../errors.ts'
import { latestBySlot, type SignedVersion } from './signed-versions.ts'

/**
 * A slot of a record is signed once, unless its signer says why it is signed again: then the new
 * signing is the slot's next version and keeps the reason. Never silently a second time.
 * 409 ERR_ALREADY_SIGNED names the slot and when it was signed.
 */
export function assertSigningAgainHasAReason(versions: readonly SignedVersion[], slotKeys: readonly string[], reason: string | undefined): void {
  if (reason) return
  const latest = latestBySlot(versions)
  const again = [...new Set(slotKeys)].map((key) => latest.get(key)).filter((v): v is SignedVersion => v !== undefined)
  if (again.length === 0) return
  const said = again.map((v) => `${JSON.stringify(v.slot)} on ${v.signedAt.slice(0, 10)}`).join(', ')
  throw ERR_ALREADY_SIGNED(`This record's ${said} ${again.length === 1 ? 'is' : 'are'} signed already: give a reason to sign again (kept as a new version)`)
}
