// A completed session is sealed (B-LTA) right after its last signature, in that request. A crash
// in between, or a TSA down then, leaves it at B-T; this pass finds such sessions — completed,
// never sealed, closed longer ago than a signing's claim lasts (so a sealing in progress is not
// raced) — and seals each. Every instance runs it; each seal is a compare-and-set on the revision
// it found (sealSession's atRevision), so across instances a session is sealed exactly once.
import { isAppError } from '../../../core/http/errors.ts'
import type { SessionContext } from './session-context.ts'
import { staleBefore } from './session-context.ts'
import { sealSession, type SealOutcome } from './session-seal.ts'

export interface SealRetryReport {
  sessionId: string
  outcome: SealOutcome['outcome'] | 'failed'
  error?: string
}

/** `signal`: a shutdown; the pass stops before the next session (the one being sealed finishes). */
export async function sealUnsealedSessions(ctx: SessionContext, signal?: AbortSignal): Promise<SealRetryReport[]> {
  if (!ctx.deps.longTermValidation) return []
  const reports: SealRetryReport[] = []
  for (const session of await ctx.deps.repository.unsealedSessions(staleBefore(ctx, ctx.now()))) {
    if (signal?.aborted) break
    try {
      const sealed = await sealSession(ctx, session.id, null, undefined, session.revision)
      reports.push({ sessionId: session.id, outcome: sealed.outcome })
    } catch (error) {
      // One session's failure (its TSA down) does not stop the others; the next pass retries it.
      reports.push({ sessionId: session.id, outcome: 'failed', error: isAppError(error) ? `${error.code}: ${error.message}` : String(error) })
    }
  }
  return reports
}
