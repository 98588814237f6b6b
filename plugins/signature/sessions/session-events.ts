import { orderedId } from './ordered-id.ts'
import type { SessionEventKind, SigningSessionEventTable } from './session-tables.ts'

export interface SessionEventJson {
  event: string
  requestId: string | null
  actor: string | null
  address: string | null
  /** The browser that did it, when known. */
  userAgent?: string | null
  sha256Before: string | null
  sha256After: string | null
  detail: string | null
  at: string
}

/**
 * One row of a session's audit trail. Each row records the document's digest before and after,
 * so the trail alone shows which revision every action saw; columns are bounded here, where the
 * free text (an address, a decline reason) enters.
 */
export function sessionEvent(input: {
  sessionId: string
  requestId: string | null
  event: SessionEventKind
  actor: string | null
  sha256Before: string | null
  sha256After: string | null
  at: string
  detail?: string | null
  address?: string | undefined
  userAgent?: string | undefined
}): SigningSessionEventTable {
  return {
    id: orderedId(), session_id: input.sessionId, request_id: input.requestId, event: input.event, actor_user_id: input.actor,
    ip_address: input.address?.slice(0, 64) ?? null, sha256_before: input.sha256Before, sha256_after: input.sha256After,
    detail: input.detail?.slice(0, 1000) ?? null, created_at: input.at,
    // Only set when known: rows stay writable on a database migrated before the column existed.
    ...(input.userAgent ? { user_agent: input.userAgent.slice(0, 300) } : {}),
  }
}

export function sessionEventJson(e: SigningSessionEventTable): SessionEventJson {
  return {
    event: e.event, requestId: e.request_id, actor: e.actor_user_id, address: e.ip_address, userAgent: e.user_agent ?? null,
    sha256Before: e.sha256_before, sha256After: e.sha256_after, detail: e.detail, at: e.created_at,
  }
}
