import { NO_METRICS, type Metrics } from '../../core/observability/metrics.ts'
import type { OutboxRepository } from './outbox/outbox-repository.ts'
import type { OutboxChannel } from './outbox/outbox-tables.ts'
import type { Verdict } from './verify/verification-report.ts'

export type WorkerPoolName = 'pdf' | 'rasterizer' | 'verify'
const OUTBOX_KINDS: readonly OutboxChannel[] = ['mail', 'webhook']
/** A scrape waits this long for the outbox's counts, then reports none of them. */
const OUTBOX_QUERY_TIMEOUT_MS = 2000

/**
 * What the signature plugin measures, through the host's metrics (core/observability/metrics.ts):
 * no-ops when they are off. Every label comes from a fixed set: pool and task names of the code,
 * outbox kinds, verdicts.
 */
export interface SignatureMetrics {
  workerTaskSettled(pool: WorkerPoolName): (task: string, seconds: number, ok: boolean) => void
  signatureMade(mode: 'single' | 'session'): void
  sessionCompleted(): void
  verified(verdict: Verdict | 'error'): void
  outboxSettled(kind: OutboxChannel, outcome: 'sent' | 'given-up'): void
  /** Queue depth and busy workers of each pool, read when scraped. */
  watchWorkerPools(pools: Record<WorkerPoolName, { readonly stats: { busy: number; queued: number } }>): void
  /** Pending messages and the age of the oldest per kind, read from the outbox table when scraped. */
  watchOutbox(repository: OutboxRepository): void
}

export function signatureMetrics(metrics: Metrics = NO_METRICS): SignatureMetrics {
  const tasks = metrics.histogram<'pool' | 'task' | 'outcome'>({
    name: 'signature_worker_task_seconds', help: 'Time a PDF or page-image task ran in its worker thread, by pool, task and outcome',
    labelNames: ['pool', 'task', 'outcome'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
  })
  const signatures = metrics.counter<'mode'>({ name: 'signature_signatures_total', help: 'Signatures made: one-pass (single) or a signer of a signing session (session)', labelNames: ['mode'] })
  const sessions = metrics.counter({ name: 'signature_sessions_completed_total', help: 'Signing sessions whose last signer signed' })
  const verifications = metrics.counter<'verdict'>({ name: 'signature_verifications_total', help: 'PDF verifications by verdict (error: the file could not be verified)', labelNames: ['verdict'] })
  const sent = metrics.counter<'kind'>({ name: 'signature_outbox_sent_total', help: 'Outbox messages this instance delivered, by kind', labelNames: ['kind'] })
  const givenUp = metrics.counter<'kind'>({ name: 'signature_outbox_given_up_total', help: 'Outbox messages this instance stopped retrying (failed for good), by kind', labelNames: ['kind'] })
  const outcome = (ok: boolean) => (ok ? 'ok' : 'error')
  return {
    workerTaskSettled: (pool) => (metrics.enabled ? (task, seconds, ok) => tasks.observe({ pool, task, outcome: outcome(ok) }, seconds) : () => {}),
    signatureMade: (mode) => signatures.inc({ mode }),
    sessionCompleted: () => sessions.inc(),
    verified: (verdict) => verifications.inc({ verdict }),
    outboxSettled: (kind, result) => (result === 'sent' ? sent : givenUp).inc({ kind }),
    watchWorkerPools(pools) {
      const each = (read: (stats: { busy: number; queued: number }) => number) => () =>
        (Object.keys(pools) as WorkerPoolName[]).map((pool) => ({ labels: { pool }, value: read(pools[pool].stats) }))
      metrics.gauge<'pool'>({ name: 'signature_worker_queue_depth', help: 'Tasks waiting for a free worker thread, by pool', labelNames: ['pool'], collect: each((s) => s.queued) })
      metrics.gauge<'pool'>({ name: 'signature_worker_busy', help: 'Worker threads running a task, by pool', labelNames: ['pool'], collect: each((s) => s.busy) })
    },
    watchOutbox(repository) {
      if (!metrics.enabled) return
      const summary = outboxSummary(repository)
      metrics.gauge<'kind'>({
        name: 'signature_outbox_pending', help: 'Outbox messages not yet delivered nor given up (due or waiting for a retry), by kind', labelNames: ['kind'],
        collect: async () => (await summary()).map(({ kind, count }) => ({ labels: { kind }, value: count })),
      })
      metrics.gauge<'kind'>({
        name: 'signature_outbox_oldest_pending_age_seconds', help: 'Age of the oldest pending outbox message (0 when none), by kind', labelNames: ['kind'],
        collect: async () => (await summary()).map(({ kind, oldestAgeSeconds }) => ({ labels: { kind }, value: oldestAgeSeconds })),
      })
    },
  }
}

/**
 * One query for both outbox gauges of a scrape (its answer is reused for a second). Bounded: a
 * database that does not answer makes the scrape report no outbox figure instead of hanging it,
 * and while that query still hangs no other is sent.
 */
function outboxSummary(repository: OutboxRepository, now: () => number = Date.now) {
  let last: { at: number; value: Promise<Array<{ kind: OutboxChannel; count: number; oldestAgeSeconds: number }>> } | undefined
  let inFlight = false
  const read = async () => {
    const rows = await repository.pendingByChannel()
    const at = now()
    return OUTBOX_KINDS.map((kind) => {
      const row = rows.find((r) => r.channel === kind)
      return { kind, count: row?.count ?? 0, oldestAgeSeconds: row?.oldest ? Math.max(0, (at - Date.parse(row.oldest)) / 1000) : 0 }
    })
  }
  return () => {
    if (last && now() - last.at < 1000) return last.value
    if (inFlight) return Promise.reject(new Error('the previous outbox query has not answered yet'))
    inFlight = true
    const query = read().finally(() => { inFlight = false })
    let timer: NodeJS.Timeout | undefined
    const value = Promise.race([query, new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`the outbox query took longer than ${OUTBOX_QUERY_TIMEOUT_MS} ms`)), OUTBOX_QUERY_TIMEOUT_MS)
    })]).finally(() => clearTimeout(timer))
    last = { at: now(), value }
    // A failed read is not reused.
    value.catch(() => { if (last?.value === value) last = undefined })
    return value
  }
}
