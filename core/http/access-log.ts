import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify'
import { mkdirSync, openSync } from 'node:fs'
import path from 'node:path'
import { batchedLogDestination } from './batched-log-destination.ts'
import type { HttpMetrics } from '../observability/http-metrics.ts'

function openLogFile(file: string): number {
  mkdirSync(path.dirname(file), { recursive: true })
  return openSync(file, 'a')
}

/**
 * How `npm start` and the benchmark log: asynchronously, in batches (batched-log-destination.ts):
 * the request path encodes its line into a 64 KiB buffer, which is written once full (about 380
 * access lines) or after a second, and flushed when the process exits.
 * Measured on /api/users, A-B-B-A x3 at 1,500 req/s in one process, whole-process CPU
 * (bench/tools/compare-app-env.ts with LOGGER=transport / destination / buffered):
 * - pino/file's transport thread, one hand-over per line: 153.4 µs CPU/req; an unbatched
 *   asynchronous destination: 131.6 µs (-21.8; load average 11-13);
 * - unbatched 117.4 µs against batched 99.9 µs (-17.5; load average 8.6-12.3): one fs.write per
 *   line was 4.6 % of the server's samples.
 * (A synchronous write per line had cost 57 -> 36 µs at saturation when it was turned off.)
 * The cost: a process killed with SIGKILL loses up to a second of lines. `destination` is a file
 * descriptor (1: stdout) or a path.
 */
export function loggerOptions(level: string, destination: number | string = 1): FastifyServerOptions['logger'] {
  // A path is opened here, synchronously, at boot: sonic-boom would open it asynchronously, and
  // lines logged before that finished were lost if the process exited meanwhile.
  const fd = typeof destination === 'number' ? destination : openLogFile(destination)
  return { level, stream: batchedLogDestination(fd) }
}

/**
 * One access line per request instead of Fastify's two ("incoming request", "request
 * completed"): method, route pattern, status, time and user id (the request id is in the line's
 * bindings). The route pattern, not the URL: a query string can carry tokens and a `next`
 * address; cookies, headers and bodies never appear. Fastify's other lines (errors, streams
 * closed early, a closing server) are kept as they are.
 * With metrics on, the same call records the request's count and latency (http-metrics.ts): Fastify
 * calls it for every answer, so metrics need no hook of their own. A route declared with logLevel
 * 'silent' (the probes) writes no line but is still counted.
 */
export class AccessLogController extends LogController {
  readonly #metrics: HttpMetrics | undefined

  constructor(metrics?: HttpMetrics) {
    super()
    this.#metrics = metrics
  }

  override incomingRequest(): void {}

  // Fastify's line (written when an app has no 404 handler of its own) names the raw URL, query
  // string included; the access line already says 404.
  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const routeOptions = request.routeOptions
    const elapsed = reply.elapsedTime
    this.#metrics?.observe(request, routeOptions.url, routeOptions.config, reply.statusCode, elapsed)
    const line = {
      method: request.method,
      route: routeOptions.url ?? null,
      status: reply.statusCode,
      ms: Math.round(elapsed * 10) / 10,
      user: request.user?.id ?? null,
    }
    if (error) reply.log.error({ ...line, err: error }, 'request')
    else reply.log.info(line, 'request')
  }
}
