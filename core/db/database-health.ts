import { lateLog, type FaultLog } from '../http/late-log.ts'

/**
 * Whether the database answers, as this instance last saw it:
 * - 'up': requests use it;
 * - 'checking': a connection broke or could not open; one probe is under way, requests go on;
 * - 'down': the probe failed; requests answer 503 ERR_DATABASE_UNAVAILABLE at once instead of
 *   waiting for a connection timeout each, and a probe runs every `retryMs` until one succeeds.
 * Each change is logged once, as one JSON line, not once per failed request.
 */
export type DatabaseState = 'up' | 'checking' | 'down'

export interface DatabaseHealthSnapshot {
  state: DatabaseState
  /** False only while 'down'. */
  reachable: boolean
  /** When the state last changed (ms since the epoch). */
  since: number
  /** The last fault seen, while not 'up'. */
  fault?: string
}


export interface DatabaseHealth {
  snapshot(): DatabaseHealthSnapshot
  /** False while 'down': fail at once instead of trying. */
  admits(): boolean
  /** A connection broke or could not open: check whether the server is still there. */
  suspect(error: unknown): void
  reportTo(log: FaultLog): void
  close(): void
}


/** A fault as a log field: its code and message only (never the error object, nor a connection string). */
export function describeFault(error: unknown): { code?: string; message: string } {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return { ...(typeof code === 'string' ? { code } : {}), message: typeof message === 'string' ? message : String(error) }
}

export function alwaysUp(): DatabaseHealth {
  const since = Date.now()
  return { snapshot: () => ({ state: 'up', reachable: true, since }), admits: () => true, suspect: () => {}, reportTo: () => {}, close: () => {} }
}

export function watchDatabaseHealth(options: { name: string; probe: () => Promise<void>; retryMs?: number }): DatabaseHealth {
  let state: DatabaseState = 'up'
  let since = Date.now()
  let fault: string | undefined
  let log: FaultLog = lateLog()
  let probing = false
  let closed = false
  let retry: NodeJS.Timeout | undefined
  const retryMs = options.retryMs ?? 1000
  const move = (next: DatabaseState) => {
    state = next
    since = Date.now()
  }

  const check = () => {
    retry = undefined
    if (probing || closed) return
    probing = true
    options.probe().then(() => {
      probing = false
      if (closed) return
      if (state === 'down') log.info({ event: 'database-reachable', downForMs: Date.now() - since }, `${options.name} is reachable again`)
      move('up')
      fault = undefined
    }, (error: unknown) => {
      probing = false
      if (closed) return
      fault = describeFault(error).message
      if (state !== 'down') {
        log.error({ event: 'database-unreachable', code: 'ERR_DATABASE_UNAVAILABLE', fault: describeFault(error) }, `${options.name} is unreachable: requests answer 503 ERR_DATABASE_UNAVAILABLE until it is back`)
        move('down')
      }
      retry = setTimeout(check, retryMs).unref()
    })
  }

  return {
    snapshot: () => ({ state, reachable: state !== 'down', since, ...(fault === undefined ? {} : { fault }) }),
    admits: () => state !== 'down',
    suspect(error) {
      if (closed || state !== 'up') return
      fault = describeFault(error).message
      log.warn({ event: 'database-connection-lost', fault: describeFault(error) }, `a connection to ${options.name} broke or could not open; checking the server`)
      move('checking')
      check()
    },
    reportTo(next) {
      log = next
    },
    close() {
      closed = true
      clearTimeout(retry)
    },
  }
}
