import type { SessionEventJson } from './session-events.ts'

const REASONED = new Set(['declined', 'cancelled'])

/** One line of a session's history as people read it. */
export interface HistoryLine {
  event: string
  /** A repeated opening of the same request by the same person: "opened it again", `count` times. */
  again: boolean
  count: number
  at: string
  /** The last of the folded openings (equal to `at` for one event). */
  lastAt: string
  actor: string | null
  requestId: string | null
  detail: string | null
}

/**
 * The audit trail as people read it: every reload of the signer page is an 'opened' event (the
 * trail keeps each, with its address, for the certificate and the API), but a reader wants to
 * know that someone opened it, and that they came back: the first opening of a request stays a
 * line, the ones after it fold into one "opened it again ×N" line until that request does
 * something else (signs, declines), after which a further opening starts a new fold.
 */
export function historyLines(events: readonly SessionEventJson[]): HistoryLine[] {
  const lines: HistoryLine[] = []
  const openedOnce = new Set<string>()
  /** Per request and person: the "again" line further openings fold into. */
  const folding = new Map<string, HistoryLine>()
  for (const e of events) {
    const key = `${e.requestId ?? ''}\0${e.actor ?? ''}`
    if (e.event === 'opened') {
      const fold = folding.get(key)
      if (fold) {
        fold.count++
        fold.lastAt = e.at
        continue
      }
      const again = openedOnce.has(key)
      openedOnce.add(key)
      const line: HistoryLine = { event: e.event, again, count: 1, at: e.at, lastAt: e.at, actor: e.actor, requestId: e.requestId, detail: null }
      lines.push(line)
      if (again) folding.set(key, line)
      else folding.delete(key)
      continue
    }
    if (e.requestId) for (const k of [...folding.keys()]) if (k.startsWith(`${e.requestId}\0`)) folding.delete(k)
    // Only a person's own words (a reason to decline or cancel) are read here; other details (a
    // signature's uuid and certificate subject, "parallel; 2 signer(s)") belong to the audit trail.
    lines.push({ event: e.event, again: false, count: 1, at: e.at, lastAt: e.at, actor: e.actor, requestId: e.requestId, detail: REASONED.has(e.event) ? e.detail : null })
  }
  return lines
}
