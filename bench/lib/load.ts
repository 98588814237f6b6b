import { fork } from 'node:child_process'

export interface LoadJob {
  url: string
  connections: number
  /** Seconds. */
  duration: number
  headers?: Record<string, string>
  /** Paths on url's origin that each connection requests in turn, instead of url alone. */
  paths?: string[]
  /**
   * What connection i sends instead (with `headers` under its own): connectionsAs[i % length],
   * for load from several people on several pages rather than 50 copies of one.
   */
  connectionsAs?: Array<{ headers: Record<string, string>; paths: string[] }>
}

export interface LoadResult {
  requestsPerSecond: number
  total: number
  latency: { p50: number; p90: number; p99: number; max: number; mean: number }
  bytesPerRequest: number
  non2xx: number
  errors: number
  timeouts: number
}

export interface ProbeJob {
  url: string
  /** Requests per second, sent on a fixed schedule (open loop). */
  rate: number
  /** Seconds. */
  duration: number
  connections: number
  headers?: Record<string, string>
}

export interface ProbeResult extends LoadResult {
  /** How late the probe itself sent requests against its schedule, ms: its own stalls, not the server's. */
  clientLateness: { p50: number; p99: number; max: number }
}

const GENERATOR = new URL('./load-generator.mjs', import.meta.url)
const PROBE = new URL('./latency-probe.mjs', import.meta.url)

/** Runs one job in a child process (so the client never shares the server's event loop). */
function inChild<T extends LoadResult>(module: URL, job: { url: string }): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(module, [], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
    child.once('message', (message: { ok: boolean; message?: string } & T) => {
      if (!message.ok) return reject(new Error(message.message))
      // Any 401, 302 or 5xx would mean we measured an error page, not the route.
      if (message.non2xx || message.errors || message.timeouts) return reject(new Error(`${job.url}: ${message.non2xx} non-2xx, ${message.errors} errors, ${message.timeouts} timeouts`))
      resolve(message)
    })
    child.once('error', reject)
    child.once('exit', (code) => { if (code) reject(new Error(`load generator exited ${code}`)) })
    child.send(job)
  })
}

/** Runs autocannon in a child process against a server listening in this one. */
export const runLoad = (job: LoadJob): Promise<LoadResult> => inChild(GENERATOR, job)

/** Latency at a steady rate, from latency-probe.mjs in a child process. */
export const runProbe = (job: ProbeJob): Promise<ProbeResult> => inChild(PROBE, job)
