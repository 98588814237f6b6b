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
  #queued: Promise<PassResult> | null = null
  #timer: NodeJS.Timeout | null = null
  #stopped = false

  constructor(options: DispatcherOptions) {
    this.#options = options
    this.#now = options.now ?? (() => new Date())
  }

  /**
   * Sends everything due now, and what became due by sending it (the next row of a target);
   * resolves once each claimed row is settled. While a pass runs, callers share one pass that
   * starts after it, so what they committed before calling is always looked at.
   */
  runOnce(): Promise<PassResult> {
    if (!this.#running) {
      this.#running = this.#drain().finally(() => { this.#running = null })
      return this.#running
    }
    this.#queued ??= this.#running.catch(() => undefined).then(() => {
      this.#queued = null
      return this.runOnce()
    })
    return this.#queued
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

  async #drain(): Promise<PassResult> {
    const total: PassResult = { sent: 0, retrying: 0, failed: 0, lost: 0 }
    // A target's rows go one at a time, oldest first (repository.due): each round may free the next.
    for (let round = 0; round < 100 && !this.#stopped; round++) {
      const result = await this.#pass()
      for (const key of Object.keys(total) as Array<keyof PassResult>) total[key] += result[key]
      if (result.sent + result.retrying + result.failed + result.lost === 0) break
    }
    return total
  }

  async #pass(): Promise<PassResult> {
    const { repository, staleClaimMs } = this.#options
    const result: PassResult = { sent: 0, retrying: 0, failed: 0, lost: 0 }
    const now = this.#now()
    const staleBefore = new Date(now.getTime() - staleClaimMs).toISOString()
    const ids = await repository.due(now.toISOString(), staleBefore, this.#options.batchSize ?? 20)
    await Promise.all(ids.map(async (id) => {
      const token = randomUUID()
      const row = await repository.claim(id, token, this.#now().toISOString(), staleBefore)
      if (!row) return
      const outcome = await this.#sendOne(row, token)
      result[outcome]++
      if (outcome === 'sent' || outcome === 'failed') this.#options.onSettled?.(row.channel, outcome === 'sent' ? 'sent' : 'given-up')
    }))
    return result
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
