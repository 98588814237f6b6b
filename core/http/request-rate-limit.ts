import type { FastifyRequest } from 'fastify'
import { ERR_TOO_MANY_REQUESTS } from './errors.ts'
import { fixedWindow } from './fixed-window.ts'
import { waitInWords } from './wait-in-words.ts'

export interface RequestRateLimitOptions {
  /** Requests a client may make per window. */
  max: number
  windowMs: number
  /** What is counted: the client address (default), or e.g. the route and the address, for a bucket per route. */
  key?: (request: FastifyRequest) => string
}

/**
 * An onRequest hook counting requests per client address in fixed windows, like the sign-in
 * throttle (login-throttle.ts) but for every request of the routes it guards. Bounded (LRU) so a
 * flood of addresses cannot grow memory. Kept per instance on purpose: what it protects is
 * this instance's CPU (each answer costs a private-key operation), not a shared secret.
 */
export function requestRateLimit(options: RequestRateLimitOptions, now: () => number = Date.now) {
  const { key = (request: FastifyRequest) => request.ip, ...window } = options
  const hit = fixedWindow({ ...window, capacity: 100_000 }, now)
  return async function limitRequestRate(request: FastifyRequest): Promise<void> {
    const wait = hit(key(request))
    if (wait !== null) throw ERR_TOO_MANY_REQUESTS(`Too many requests; try again ${waitInWords(wait)}`, { headers: { 'Retry-After': String(wait) } })
  }
}
