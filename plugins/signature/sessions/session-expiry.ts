import { z } from 'zod'
import type { SigningSessionTable } from './session-tables.ts'

/** Past its due date an active session can no longer be signed: pages say expired, finalize refuses. */
export function isExpired(session: Pick<SigningSessionTable, 'status' | 'due_at'>, now: Date): boolean {
  return session.status === 'active' && !!session.due_at && session.due_at < now.toISOString()
}

// Due dates are stored and compared as ISO strings (here and in SQL), which order like instants
// only with a four-digit year: a later year ("+010000-...") would sort before today's.
const LATEST_DUE = '9999-12-31T23:59:59.999Z'

/**
 * A due date as the API takes it, to the instant stored: a real calendar day (2026-02-30 is not
 * one) or an ISO date-time, no later than the end of 9999. Whether it is in the future is the
 * caller's check, against its clock.
 */
export const dueAtSchema = z.string().max(64).transform((value, ctx) => {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(value)
  const at = day ? Date.parse(`${value}T23:59:59.999Z`) : Date.parse(value)
  const real = !Number.isNaN(at) && (!day || new Date(at).toISOString().slice(0, 10) === value)
  if (!real) {
    ctx.addIssue({ code: 'custom', message: 'a date (YYYY-MM-DD) or an ISO date-time' })
    return z.NEVER
  }
  if (at > Date.parse(LATEST_DUE)) {
    ctx.addIssue({ code: 'custom', message: 'the due date is at most 9999-12-31' })
    return z.NEVER
  }
  return new Date(at).toISOString()
})
