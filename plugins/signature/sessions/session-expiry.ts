import type { SigningSessionTable } from './session-tables.ts'

/** Past its due date an active session can no longer be signed: pages say expired, finalize refuses. */
export function isExpired(session: Pick<SigningSessionTable, 'status' | 'due_at'>, now: Date): boolean {
  return session.status === 'active' && !!session.due_at && session.due_at < now.toISOString()
}

/** A due date as the form sends it (a day: the end of that day, UTC) or as an ISO instant. */
export function dueInstant(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T23:59:59.999Z` : new Date(value).toISOString()
}
