import type { FastifyRequest } from 'fastify'
import { LRUCache } from 'lru-cache'
import { ERR_TOO_MANY_REQUESTS } from './errors.ts'

export interface RequestRateLimitOptions {
  /** Requests a client may make per window. */
  max: number
  windowMs: number
}

interface Window {
  count: number
  resetAt: number
}

/**
 * An onRequest hook counting requests per client address in fixed windows, like the sign-in
 * throttle (login-throttle.ts) but for every request of the routes it guards. Bounded (LRU) so a
 * flood of addresses cannot grow memory. Kept per instance on purpose: what it protects is
 * this instance's CPU (each answer costs a private-key operation), not a shared secret.
 */
export function requestRateLimit(options: RequestRateLimitOptions, now: () => number = Date.now) {
  const windows = new LRUCache<string, Window>({ max: 100_000 })
  return async function limitRequestRate(request: FastifyRequest): Promise<void> {
    const at = now()
    let window = windows.get(request.ip)
    if (!window || window.resetAt <= at) {
      window = { count: 0, resetAt: at + options.windowMs }
      windows.set(request.ip, window)
    }
    window.count += 1
    if (window.count > options.max) {
      const wait = Math.max(1, Math.ceil((window.resetAt - at) / 1000))
      throw ERR_TOO_MANY_REQUESTS(`Too many requests; try again in ${wait} s`, { headers: { 'Retry-After': String(wait) } })
    }
  }
}
