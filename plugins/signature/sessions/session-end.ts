import { z } from 'zod'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { parseInput } from '../../../core/http/validate.ts'
import { ERR_SESSION_CLOSED, ERR_SESSION_REQUEST_CLOSED, ERR_SESSION_REQUEST_NOT_FOUND, ERR_SESSION_REQUEST_NOT_YOURS } from '../errors.ts'
import { assertMayCancel, visibleSession } from './session-access.ts'
import { staleBefore, type SessionContext } from './session-context.ts'
import { sessionEvent } from './session-events.ts'
import { sessionDetail, type SessionJson } from './session-views.ts'
import type { SigningSessionRequestTable, SigningSessionTable } from './session-tables.ts'

// How a session ends other than by its last signature (which completes it in the same transaction
// as that signature, in session-repository.ts): its creator cancels it, or a signer declines.

export const declineSchema = z.strictObject({ reason: z.string().trim().min(1, 'required').max(1000) })
// A cancel may say why (the signers and the trail see it); an empty reason is no reason.
const cancelSchema = z.strictObject({ reason: z.string().trim().max(1000).optional() })

export async function cancelSession(ctx: SessionContext, user: PublicUser | null | undefined, sessionId: string, address?: string, body?: unknown): Promise<SessionJson> {
  const { user: actor, session } = await visibleSession(ctx, user, sessionId)
  assertMayCancel(ctx, actor, session)
  const reason = parseInput(cancelSchema, body ?? {}, 'body').reason || null
  const { repository } = ctx.deps
  const at = ctx.now().toISOString()
  const done = await repository.cancel(session.id, at, sessionEvent({
    sessionId: session.id, requestId: null, event: 'cancelled', actor: actor.id,
    sha256Before: session.current_sha256, sha256After: session.current_sha256, at, address, detail: reason,
  }))
  if (!done) throw ERR_SESSION_CLOSED(`The session is ${(await repository.findSession(session.id))?.status}, it cannot be cancelled`)
  return sessionDetail(ctx, actor, sessionId)
}

/** A signer refuses: the request and its whole session end as declined, with the reason. */
export async function declineRequest(ctx: SessionContext, user: PublicUser | null | undefined, sessionId: string, requestId: string, body: unknown, address?: string): Promise<SessionJson> {
  const { user: signer, session, requests } = await visibleSession(ctx, user, sessionId)
  const request = requests.find((r) => r.id === requestId)
  if (!request) throw ERR_SESSION_REQUEST_NOT_FOUND()
  if (request.signer_user_id !== signer.id) throw ERR_SESSION_REQUEST_NOT_YOURS()
  const { reason } = parseInput(declineSchema, body ?? {}, 'body')
  await declineAs(ctx, session, request, reason, { actor: signer.id, address })
  return sessionDetail(ctx, signer, sessionId)
}

/**
 * The request declined with the reason, ending its session, and the 'declined' event, in one
 * transaction: for an account signer (actor: their id) and a signer by e-mail (actor: null; the
 * event names their request, address and browser).
 */
export async function declineAs(ctx: SessionContext, session: SigningSessionTable, request: SigningSessionRequestTable, reason: string,
  by: { actor: string | null; address?: string | undefined; userAgent?: string | undefined }): Promise<void> {
  if (session.status !== 'active') throw ERR_SESSION_CLOSED(`The session is ${session.status}`)
  const { repository } = ctx.deps
  const now = ctx.now()
  const at = now.toISOString()
  const done = await repository.decline(session.id, request.id, reason, at, staleBefore(ctx, now), sessionEvent({
    sessionId: session.id, requestId: request.id, event: 'declined', actor: by.actor,
    sha256Before: session.current_sha256, sha256After: session.current_sha256, at, detail: reason, address: by.address, userAgent: by.userAgent,
  }))
  if (!done) throw ERR_SESSION_REQUEST_CLOSED(`The request is ${(await repository.findRequest(request.id))?.status}`)
}

/** The reason a session ends with when one of its signers' accounts is deleted. */
export const SIGNER_REMOVED = 'signer removed'

/**
 * A deleted account cannot sign: every active session still waiting for it is cancelled by the
 * application with the reason "signer removed" (its creator and the other signers are told, as
 * for any cancel). Answers the ids of the sessions ended.
 */
export async function endSessionsOfRemovedSigner(ctx: SessionContext, userId: string): Promise<string[]> {
  const { repository } = ctx.deps
  const ended: string[] = []
  for (const sessionId of await repository.activeSessionsAwaiting(userId)) {
    const session = await repository.findSession(sessionId)
    if (!session) continue
    const at = ctx.now().toISOString()
    const done = await repository.cancelForRemovedSigner(sessionId, userId, at, sessionEvent({
      sessionId, requestId: null, event: 'cancelled', actor: null,
      sha256Before: session.current_sha256, sha256After: session.current_sha256, at, detail: SIGNER_REMOVED,
    }))
    if (done) ended.push(sessionId)
  }
  return ended
}
