import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { ERR_SESSION_CLOSED, ERR_SESSION_EXPIRED, ERR_SESSION_REMIND_TOO_SOON } from '../errors.ts'
import { waitInWords } from '../../../core/http/wait-in-words.ts'
import { isExpired } from './session-expiry.ts'
import { assertMayCancel, visibleSession } from './session-access.ts'
import type { SessionContext } from './session-context.ts'
import { sessionEvent } from './session-events.ts'
import { sessionDetail, type SessionJson } from './session-views.ts'

export const DEFAULT_REMIND_INTERVAL_MS = 60 * 60_000

/**
 * "Remind": whoever may cancel a session (its creator, or signing-sessions:cancel) mails a
 * reminder to each signer whose turn it is, at most once per interval. The reminder is an audit
 * event, written with its mail rows in one transaction (the outbox sends them).
 */
export async function remindSession(ctx: SessionContext, user: PublicUser | null | undefined, sessionId: string, address?: string): Promise<SessionJson> {
  const { user: actor, session } = await visibleSession(ctx, user, sessionId)
  assertMayCancel(ctx, actor, session)
  if (session.status !== 'active') throw ERR_SESSION_CLOSED(`The session is ${session.status}`)
  const now = ctx.now()
  if (isExpired(session, now)) throw ERR_SESSION_EXPIRED(`The session was due by ${session.due_at}: nobody can sign it any more`)
  const interval = ctx.deps.remindIntervalMs ?? DEFAULT_REMIND_INTERVAL_MS
  const at = now.toISOString()
  const done = await ctx.deps.repository.remind(session.id, at, new Date(now.getTime() - interval).toISOString(), sessionEvent({
    sessionId: session.id, requestId: null, event: 'reminded', actor: actor.id,
    sha256Before: session.current_sha256, sha256After: session.current_sha256, at, address,
  }))
  if (!done) {
    const fresh = await ctx.deps.repository.findSession(session.id)
    if (fresh?.status !== 'active') throw ERR_SESSION_CLOSED(`The session is ${fresh?.status}`)
    const retryAfter = Math.max(1, Math.ceil((Date.parse(fresh.reminded_at ?? at) + interval - now.getTime()) / 1000))
    // In words people read (it reaches the page's toast): how long ago, and the wait in minutes; the
    // exact seconds stay in Retry-After.
    const ago = Math.floor((now.getTime() - Date.parse(fresh.reminded_at ?? at)) / 60_000)
    const when = ago < 1 ? 'less than a minute ago' : ago === 1 ? '1 minute ago' : `${ago} minutes ago`
    throw ERR_SESSION_REMIND_TOO_SOON(`The signers were reminded ${when}; you can remind them again ${waitInWords(retryAfter)}`, { headers: { 'Retry-After': String(retryAfter) } })
  }
  return sessionDetail(ctx, actor, sessionId)
}
