import { isTurnOf } from './signing-order.ts'
import type { RequestStatus } from './session-tables.ts'
import type { SessionJson, SessionRequestJson } from './session-views.ts'

/** What a person sees of one signer of a session. */
export type SignerStatus = 'waiting' | 'your-turn' | 'their-turn' | 'opened' | 'signed' | 'declined' | 'cancelled' | 'expired'

export interface SignerLine {
  request: SessionRequestJson
  status: SignerStatus
  /** Words for the status, for the viewer ('Your turn' / 'Their turn'). */
  label: string
  /** When the status began: signed, declined, first opened; null while nothing happened. */
  at: string | null
}

/**
 * Each signer's status as the session page shows it, from the session and its audit trail: the
 * signing-order rule decides whose turn it is (the inbox's own rule), the trail when they opened it.
 */
export function signerLines(session: SessionJson, viewerId: string): SignerLine[] {
  const openedAt = new Map<string, string>()
  for (const event of session.events ?? []) {
    if (event.event === 'opened' && event.requestId && !openedAt.has(event.requestId)) openedAt.set(event.requestId, event.at)
  }
  const ordered = session.requests.map((r) => ({ sign_order: r.order, status: r.status as RequestStatus }))
  return session.requests.map((request, i) => {
    const line = (status: SignerStatus, label: string, at: string | null): SignerLine => ({ request, status, label, at })
    if (request.status === 'signed') return line('signed', 'Signed', request.signedAt)
    if (request.status === 'declined') return line('declined', 'Declined', request.declinedAt)
    if (session.status !== 'active') return line('cancelled', session.status === 'declined' ? 'Not signed (declined by another signer)' : 'Not signed (session cancelled)', null)
    if (session.expired) return line('expired', 'Expired: not signed by the due date', null)
    const opened = openedAt.get(request.id) ?? null
    if (!isTurnOf(session.mode, ordered, ordered[i]!)) return line('waiting', 'Waiting for earlier signers', null)
    if (opened) return line('opened', request.signer.id === viewerId ? 'Your turn (opened)' : 'Opened, not signed yet', opened)
    return request.signer.id === viewerId ? line('your-turn', 'Your turn', null) : line('their-turn', 'Their turn', null)
  })
}
