import type { SessionMode, SigningSessionRequestTable } from './session-tables.ts'

type OrderedRequest = Pick<SigningSessionRequestTable, 'sign_order' | 'status'>

/**
 * The signing-order rule, written once: in a sequential session a request waits for every request
 * of a lower order that is not signed yet; equal orders sign in any order among themselves, and a
 * parallel session never waits. The refusal to sign out of turn and the inbox's "your turn" both
 * ask here, so the inbox never invites a signature that finalize would refuse. The claim in
 * session-repository.ts states the same rule in SQL, atomically, for concurrent finalizes.
 */
export function waitingFor<R extends OrderedRequest>(mode: SessionMode | string, requests: readonly R[], request: OrderedRequest): R[] {
  if (!orderApplies(mode)) return []
  return requests.filter((r) => Number(r.sign_order) < Number(request.sign_order) && r.status !== 'signed')
}

export function isTurnOf(mode: SessionMode | string, requests: readonly OrderedRequest[], request: OrderedRequest): boolean {
  return waitingFor(mode, requests, request).length === 0
}

/** Whether the order can make anyone wait: when not, callers need not read the other requests. */
export function orderApplies(mode: SessionMode | string): boolean {
  return mode === 'sequential'
}

/** The order every read lists requests in (session-repository.ts requestsOf): sign order, then slot key. */
export function compareSigningOrder(a: Pick<SigningSessionRequestTable, 'sign_order' | 'slot_key'>, b: Pick<SigningSessionRequestTable, 'sign_order' | 'slot_key'>): number {
  return Number(a.sign_order) - Number(b.sign_order) || (a.slot_key < b.slot_key ? -1 : a.slot_key > b.slot_key ? 1 : 0)
}
