// A completed session's document gets its long-term validation (PAdES B-LTA) as one more
// revision: the DSS and the document timestamp are appended to the current file, written under
// a new key, and the session moves on to it in one conditional update with a 'sealed' event.
// Any failure (a TSA down) leaves the completed B-T document as it was; sealing again later
// (the renewal command, or the API) picks it up. No file is ever overwritten.
import { randomUUID } from 'node:crypto'
import { sha256Hex } from '../signing/sha256-hex.ts'
import type { SessionContext } from './session-context.ts'
import { sessionEvent } from './session-events.ts'

export type SealOutcome = { outcome: 'sealed'; documentKey: string; sha256: string; missing: string[] } | { outcome: 'moved' | 'not-completed' | 'disabled' }

/**
 * `actor` null: the application (after the last signature, `address` is that signer's request's).
 * `atRevision`: seal only the revision the caller saw — the one the last signature made, or the
 * unsealed one a retry found — so a session another instance sealed meanwhile is not sealed twice.
 */
export async function sealSession(ctx: SessionContext, sessionId: string, actor: string | null, address?: string, atRevision?: number): Promise<SealOutcome> {
  const { repository, disk, longTermValidation } = ctx.deps
  if (!longTermValidation) return { outcome: 'disabled' }
  const session = await repository.findSession(sessionId)
  if (!session || session.status !== 'completed') return { outcome: 'not-completed' }
  if (atRevision !== undefined && session.revision !== atRevision) return { outcome: 'moved' }
  const before = await disk.get(session.current_document_key)
  const shaBefore = sha256Hex(before)
  if (shaBefore !== session.current_sha256) throw new Error(`The stored document of session ${session.id} does not match its SHA-256`)
  const extended = await longTermValidation.extend(before)
  const shaAfter = sha256Hex(extended.pdf)
  const documentKey = `sessions/${session.id}/${String(session.revision + 1).padStart(3, '0')}-sealed-${randomUUID().slice(0, 8)}.pdf`
  const staged = await disk.stage(documentKey, extended.pdf)
  const at = ctx.now().toISOString()
  const detail = extended.missing.length ? `without revocation data for: ${extended.missing.join('; ')}` : null
  try {
    const committed = await repository.commitSeal({
      sessionId, baseRevision: session.revision, documentKey, document: staged, documentSha256: shaAfter, at,
      event: sessionEvent({ sessionId, requestId: null, event: 'sealed', actor, sha256Before: shaBefore, sha256After: shaAfter, at, detail, address }),
    })
    if (committed) return { outcome: 'sealed', documentKey, sha256: shaAfter, missing: extended.missing }
  } catch (error) {
    await staged.discard().catch(() => {})
    throw error
  }
  // Someone else sealed first: theirs is the revision; ours was never referenced.
  await staged.discard().catch(() => {})
  return { outcome: 'moved' }
}
