import { LRUCache } from 'lru-cache'

export interface ThrottleOptions {
  windowSeconds: number
  maxFailuresPerEmail: number
  maxFailuresPerClient: number
}

export interface LoginThrottle {
  /** Seconds to wait when this e-mail or client is locked out, else 0. */
  retryAfter(email: string, client: string): Promise<number>
  recordFailure(email: string, client: string): Promise<void>
  recordSuccess(email: string, client: string): Promise<void>
}

interface Window {
  failures: number
  resetAt: number
}

/**
 * Fixed-window failure counters per e-mail and per client address. Bounded (LRU) so a flood of
 * random e-mails cannot grow memory without limit. A shared store (Redis) can replace it.
 */
export function createMemoryLoginThrottle(options: ThrottleOptions, now: () => number = Date.now): LoginThrottle {
  const windows = new LRUCache<string, Window>({ max: 100_000 })
  const limits = { email: options.maxFailuresPerEmail, client: options.maxFailuresPerClient }

  const current = (key: string): Window | undefined => {
    const w = windows.get(key)
    if (w && w.resetAt <= now()) {
      windows.delete(key)
      return undefined
    }
    return w
  }
  const keys = (email: string, client: string) => [
    { key: `email:${email.toLowerCase()}`, limit: limits.email },
    { key: `client:${client}`, limit: limits.client },
  ]

  return {
    async retryAfter(email, client) {
      let wait = 0
      for (const { key, limit } of keys(email, client)) {
        const w = current(key)
        if (w && w.failures >= limit) wait = Math.max(wait, Math.ceil((w.resetAt - now()) / 1000))
      }
      return wait
    },
    async recordFailure(email, client) {
      for (const { key } of keys(email, client)) {
        const w = current(key) ?? { failures: 0, resetAt: now() + options.windowSeconds * 1000 }
        w.failures += 1
        windows.set(key, w)
      }
    },
    async recordSuccess(email) {
      windows.delete(`email:${email.toLowerCase()}`)
    },
  }
}
