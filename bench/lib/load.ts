import { fork } from 'node:child_process'

export interface LoadJob {
  url: string
  connections: number
  /** Seconds. */
  duration: number
  headers?: Record<string, string>
  /** Requests per second over all connections; unset = as fast as the server answers. */
  overallRate?: number
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

const GENERATOR = new URL('./load-generator.mjs', import.meta.url)

/** Runs autocannon in a child process against a server listening in this one. */
export function runLoad(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = fork(GENERATOR, [], { execArgv: [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
    child.once('message', (message: { ok: boolean; message?: string } & LoadResult) => {
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
