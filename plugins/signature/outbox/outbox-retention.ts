import type { Disk } from '../../../core/storage/disk.ts'
import type { OutboxRepository } from './outbox-repository.ts'

const DAY_MS = 24 * 3_600_000

/**
 * Keeps the outbox from growing forever: messages sent or given up more than `retentionDays`
 * ago go, with their attempts and their .eml copies, in batches so that no transaction holds
 * many rows. Answers how many rows went. `retentionDays` 0 keeps everything.
 */
export async function pruneOutbox(options: {
  repository: OutboxRepository
  /** Where the mail channel keeps each message's .eml copy, and under which key (mail-transport.ts's emlKey). */
  copies: { disk: Disk; keyOf: (id: string) => string }
  retentionDays: number
  now: Date
}): Promise<number> {
  if (options.retentionDays <= 0) return 0
  const before = new Date(options.now.getTime() - options.retentionDays * DAY_MS).toISOString()
  let total = 0
  for (;;) {
    const ids = await options.repository.prune(before)
    // A file left by a crash between these two steps is only a stray copy: the row, which the
    // admin pages read, is gone.
    await Promise.all(ids.map((id) => options.copies.disk.delete(options.copies.keyOf(id))))
    total += ids.length
    if (ids.length === 0) return total
  }
}
