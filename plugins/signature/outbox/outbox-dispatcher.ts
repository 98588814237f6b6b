import { randomUUID } from 'node:crypto'
import type { OutboxRepository } from './outbox-repository.ts'
import type { OutboxChannel, SignatureOutboxTable } from './outbox-tables.ts'
import { nextAttemptAt, type RetryPolicy } from './retry-policy.ts'

/** What a channel reports about one send; a thrown error counts as a retryable failure. */
export interface SendResult {
  ok: boolean
  statusCode?: number | null
  error?: string | null
  /** Who or where it went and what it was (shown on the admin pages). */
  summary?: string | null
  /** A failure that no retry can cure (an endpoint deleted, a user gone): give up now. */
  permanent?: boolean
}

export interface OutboxSender {
  send(row: SignatureOutboxTable): Promise<SendResult>
}

export interface DispatcherOptions {
  repository: OutboxRepository
  senders: Record<OutboxChannel, OutboxSender>
  retry: RetryPolicy
  /** A claim older than this belongs to a process that died mid-send and is taken over. */
  staleClaimMs: number
  /** Rows claimed per pass; each is sent concurrently with the others of its pass. */
  batchSize?: number
  now?: () => Date
  onError?: (error: unknown) => void
  /** Told of each row this dispatcher delivered or gave up on (metrics). */
  onSettled?: (channel: OutboxChannel, outcome: 'sent' | 'given-up') => void
}

export interface PassResult { sent: number; retrying: number; failed: number; lost: number }

/**
 * Sends what the outbox holds. `runOnce()` is one pass (tests drive it directly); `start()` runs
 * passes on a timer and `kick()` asks for one soon after a commit. Passes never overlap within a
 * process; between processes the claim decides who sends a row.
 */
export class OutboxDispatcher {
  readonly #options: DispatcherOptions
  readonly #now: () => Date
  #running: Promise<PassResult> | null = null
  /**
   * Look for due rows again before waiting or ending: set by a caller while a drain runs, and by
   * each send as it settles (its target's next row may be due). A send that settles while the
   * drain's pick query runs is gone from the set the drain then waits on, and the query may not
   * have seen its commit: without the flag its target waited for some other send to settle.
   */
  #again = false
  /** Wakes a drain that waits for a send to settle. */
  #wake: (() => void) | null = null
  #timer: NodeJS.Timeout | null = null
  #stopped = false

  constructor(options: DispatcherOptions) {
    this.#options = options
    this.#now = options.now ?? (() => new Date())
  }

  /**
   * Sends everything due now, and what becomes due while it runs (the next row of a target, rows
   * committed meanwhile); resolves once nothing is due and every claimed row is settled. A call
   * while a drain runs joins it and makes it look again, so what the caller committed before
   * calling is always looked at.
   */
  runOnce(): Promise<PassResult> {
    if (!this.#running) {
      this.#again = false
      this.#running = this.#drain().finally(() => { this.#running = null })
      return this.#running
    }
    this.#again = true
    this.#wake?.()
    // The drain may have decided to end before it saw the flag: then one more drain.
    return this.#running.then((result) => (this.#again ? this.runOnce() : result))
  }

  /** After a commit: send soon, without making the committing request wait. */
  kick(): void {
    if (this.#stopped) return
    setImmediate(() => { void this.runOnce().catch((error) => this.#options.onError?.(error)) })
  }

  start(pollMs: number): void {
    const tick = () => {
      if (this.#stopped) return
      this.runOnce().catch((error) => this.#options.onError?.(error)).finally(() => {
        if (!this.#stopped) this.#timer = setTimeout(tick, pollMs)
      })
    }
    this.#timer = setTimeout(tick, 0)
  }

  /** Stops the timer and waits for the pass in flight (its rows are settled, not abandoned). */
  async stop(): Promise<void> {
    this.#stopped = true
    if (this.#timer) clearTimeout(this.#timer)
    await this.#running?.catch(() => {})
  }

  /**
   * Keeps up to `batchSize` sends in flight, each settling on its own: a row is picked as soon as
   * a slot frees or a commit wakes the drain, so a target that never answers holds one slot and
   * its own later rows (repository.due gives only the oldest due row of a target, and a claimed
   * one blocks the rest of its target), never the other targets. Within a process that is all the
   * ordering needs; between processes the claim decides.
   */
  async #drain(): Promise<PassResult> {
    const { repository, staleClaimMs } = this.#options
    const limit = this.#options.batchSize ?? 20
    const total: PassResult = { sent: 0, retrying: 0, failed: 0, lost: 0 }
    const inFlight = new Set<Promise<void>>()
    for (;;) {
      this.#again = false
      if (!this.#stopped && inFlight.size < limit) {
        const now = this.#now()
        const staleBefore = new Date(now.getTime() - staleClaimMs).toISOString()
        const ids = await repository.due(now.toISOString(), staleBefore, limit - inFlight.size)
        // Claimed together, as the rows of one pick; each is then sent and settled on its own.
        const rows = await Promise.all(ids.map(async (id) => {
          const token = randomUUID()
          const row = await repository.claim(id, token, this.#now().toISOString(), staleBefore)
          return row ? { row, token } : null
        }))
        for (const claimed of rows) {
          if (!claimed) continue
          const send: Promise<void> = this.#sendOne(claimed.row, claimed.token).then((outcome) => {
            total[outcome]++
            if (outcome === 'sent' || outcome === 'failed') this.#options.onSettled?.(claimed.row.channel, outcome === 'sent' ? 'sent' : 'given-up')
          }, (error) => this.#options.onError?.(error)).finally(() => {
            inFlight.delete(send)
            this.#again = true
            this.#wake?.()
          })
          inFlight.add(send)
        }
      }
      if (inFlight.size === 0 && !(this.#again && !this.#stopped)) return total
      if (this.#again) continue
      // Until a send settles (its target's next row may be due) or a commit wakes us; then one
      // turn of the event loop, so the sends settling together are picked after in one query.
      await new Promise<void>((resolve) => { this.#wake = resolve })
      this.#wake = null
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
  }

  async #sendOne(row: SignatureOutboxTable, token: string): Promise<keyof PassResult> {
    const started = this.#now()
    let sent: SendResult
    try {
      sent = await this.#options.senders[row.channel].send(row)
    } catch (error) {
      sent = { ok: false, error: (error as Error)?.message ?? String(error) }
    }
    const finished = this.#now()
    const attempt = {
      started_at: started.toISOString(),
      duration_ms: Math.max(0, finished.getTime() - started.getTime()),
      status_code: sent.statusCode ?? null,
      ok: sent.ok ? 1 : 0,
      error: sent.error?.slice(0, 1000) ?? null,
    }
    const summary = sent.summary === undefined ? undefined : sent.summary?.slice(0, 600) ?? null
    if (sent.ok) {
      const kept = await this.#options.repository.settle(row, token, { status: 'sent', attempt, ...(summary !== undefined ? { summary } : {}) })
      return kept ? 'sent' : 'lost'
    }
    const next = sent.permanent ? null : nextAttemptAt(this.#options.retry, row.created_at, Number(row.attempts) + 1, finished)
    const kept = await this.#options.repository.settle(row, token, {
      status: next ? 'pending' : 'failed', ...(next ? { nextAttemptAt: next } : {}), attempt, ...(summary !== undefined ? { summary } : {}),
    })
    return !kept ? 'lost' : next ? 'retrying' : 'failed'
  }
}
