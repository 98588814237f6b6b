import { randomBytes } from 'node:crypto'

let lastMs = 0
let counter = 0

/**
 * A 36-character id that sorts in creation order within a process: milliseconds, then a counter,
 * then randomness. Audit events written in one transaction share a timestamp; ordering them by
 * (created_at, id) must still give 'signed' before 'completed'.
 */
export function orderedId(): string {
  const now = Date.now()
  counter = now === lastMs ? counter + 1 : 0
  lastMs = now
  return `${now.toString(16).padStart(12, '0')}-${counter.toString(16).padStart(8, '0')}-${randomBytes(7).toString('hex')}`
}

/** What orderedId() writes: ids from a URL are checked against it before any lookup. */
export const ORDERED_ID = /^[0-9a-f]{12}-[0-9a-f]{8}-[0-9a-f]{14}$/
