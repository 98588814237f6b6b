// The verifier is public: a fixed window of verifications per client address, bounded in memory,
// keeps one client from holding the PDF workers. (Per instance; enough for a public tool.)
import { LRUCache } from 'lru-cache'
import { ERR_VERIFY_RATE_LIMITED } from './errors.ts'

export function createVerifyRateLimit(perMinute: number, now: () => number = Date.now) {
  const windows = new LRUCache<string, { count: number; resetAt: number }>({ max: 50_000 })
  return function take(client: string): void {
    const at = now()
    let window = windows.get(client)
    if (!window || window.resetAt <= at) {
      window = { count: 0, resetAt: at + 60_000 }
      windows.set(client, window)
    }
    window.count++
    if (window.count > perMinute) {
      const seconds = Math.ceil((window.resetAt - at) / 1000)
      throw ERR_VERIFY_RATE_LIMITED(`Too many verifications from this address; try again in ${seconds} s`, { headers: { 'retry-after': String(seconds) } })
    }
  }
}
