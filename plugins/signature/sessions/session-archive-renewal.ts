// Archive renewal (PAdES B-LTA, ETSI EN 319 142-1 5.5): before the TSA certificate of a
// document's last document timestamp expires, a fresh DSS (now also covering that timestamp's
// chain) and a new document timestamp are appended, so the evidence keeps a valid seal. A
// completed session that was never sealed (its TSA was down at completion) is due at once.
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { isAppError } from '../../../core/http/errors.ts'
import { ERR_LTV_DOCUMENT_NOT_FOUND, ERR_LTV_NOT_APPLICABLE } from '../ltv/errors.ts'
import { mayCancelSession, visibleSession } from './session-access.ts'
import type { SessionContext } from './session-context.ts'
import { sealSession, type SealOutcome } from './session-seal.ts'

export interface RenewalReport {
  sessionId: string
  outcome: SealOutcome['outcome'] | 'not-due' | 'failed'
  /** The last document timestamp's TSA certificate expiry before renewal (null: none yet). */
  expiresAt: string | null
  error?: string
}

/** The creator of the session or a role that may end anyone's session (an administrator) renews it now. */
export async function renewSessionTimestamp(ctx: SessionContext, user: PublicUser | null | undefined, sessionId: string, address?: string): Promise<SealOutcome> {
  const { user: actor, session } = await visibleSession(ctx, user, sessionId).catch((error: unknown) => {
    throw isAppError(error) && error.code === 'ERR_SESSION_NOT_FOUND' ? ERR_LTV_DOCUMENT_NOT_FOUND('No signing session with this id') : error
  })
  // Same rule as cancel: those who may act on the session as a whole, not every signer in it.
  if (!mayCancelSession(ctx, actor, session.created_by)) throw ERR_LTV_DOCUMENT_NOT_FOUND('No signing session with this id')
  if (!ctx.deps.longTermValidation) throw ERR_LTV_NOT_APPLICABLE('Long-term validation is not configured')
  if (session.status !== 'completed') throw ERR_LTV_NOT_APPLICABLE(`The session is ${session.status}: only a completed document is sealed`)
  const outcome = await sealSession(ctx, session.id, actor.id, address)
  if (outcome.outcome === 'not-completed' || outcome.outcome === 'disabled') throw ERR_LTV_NOT_APPLICABLE()
  return outcome
}

/** Every completed session whose last document timestamp's TSA certificate expires within `beforeDays` (or that has none). */
export async function renewDueTimestamps(ctx: SessionContext, options: { beforeDays: number }): Promise<RenewalReport[]> {
  const { repository, disk, longTermValidation } = ctx.deps
  if (!longTermValidation) throw ERR_LTV_NOT_APPLICABLE('Long-term validation is not configured')
  const horizon = ctx.now().getTime() + options.beforeDays * 24 * 60 * 60 * 1000
  const reports: RenewalReport[] = []
  for (const session of await repository.completedSessions()) {
    let expiresAt: string | null = null
    try {
      const needs = await longTermValidation.needs(await disk.get(session.current_document_key))
      expiresAt = needs.lastDocumentTimestamp?.tsaNotAfter ?? null
      if (expiresAt && new Date(expiresAt).getTime() > horizon) {
        reports.push({ sessionId: session.id, outcome: 'not-due', expiresAt })
        continue
      }
      // At the revision read: a seal by another instance meanwhile is not sealed over again.
      const outcome = await sealSession(ctx, session.id, null, undefined, session.revision)
      reports.push({ sessionId: session.id, outcome: outcome.outcome, expiresAt })
    } catch (error) {
      // One document's failure (its TSA down) does not stop the others; the next run retries it.
      reports.push({ sessionId: session.id, outcome: 'failed', expiresAt, error: isAppError(error) ? `${error.code}: ${error.message}` : String(error) })
    }
  }
  return reports
}
