import { sql, type Kysely } from 'kysely'
import type { CheckResult } from './readiness.ts'

export interface DatabaseCheckOptions {
  /** A `select 1` not answered within this long counts as unreachable. */
  timeoutMs: number
  /** A result is reused this long, so a flood of probes costs the database one query per period. */
  reuseMs?: number
  now?: () => number
}

/**
 * The readiness check of a database: `select 1` through the app's own pool, bounded by a timeout.
 * At most one query is in flight: while one that timed out still hangs (a network that drops
 * packets holds it until TCP gives up) the check answers 'unreachable' without sending another,
 * so probes never take more than one of the pool's connections.
 */
export function databaseAnswers(db: Kysely<any>, options: DatabaseCheckOptions): () => Promise<CheckResult> {
  const now = options.now ?? Date.now
  const reuseMs = options.reuseMs ?? 1000
  let inFlight: Promise<CheckResult> | undefined
  let last: { at: number; result: CheckResult } | undefined

  const query = () => {
    const started = now()
    inFlight = sql`select 1`.execute(db).then(() => 'ok', () => 'unreachable')
    inFlight.then((result) => {
      last = { at: started, result }
      inFlight = undefined
    })
    return inFlight
  }

  return async () => {
    if (last && now() - last.at < reuseMs) return last.result
    if (inFlight) return last?.result === 'ok' ? withTimeout(inFlight, options.timeoutMs) : 'unreachable'
    return withTimeout(query(), options.timeoutMs)
  }
}

function withTimeout(answer: Promise<CheckResult>, ms: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<CheckResult>((resolve) => { timer = setTimeout(() => resolve('unreachable'), ms) })
  return Promise.race([answer, late]).finally(() => clearTimeout(timer))
}
