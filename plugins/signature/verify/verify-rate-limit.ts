// The verifier is public: a fixed window of verifications per client address, bounded in memory,
// keeps one client from holding the PDF workers. (Per instance; enough for a public tool.)
import { fixedWindow } from '../../../core/http/fixed-window.ts'
import { ERR_VERIFY_RATE_LIMITED } from './errors.ts'
import { waitInWords } from '../../../core/http/wait-in-words.ts'

export function createVerifyRateLimit(perMinute: number, now: () => number = Date.now) {
  const hit = fixedWindow({ max: perMinute, windowMs: 60_000, capacity: 50_000 }, now)
  return function take(client: string): void {
    const seconds = hit(client)
    if (seconds !== null) throw ERR_VERIFY_RATE_LIMITED(`Too many verifications from this address; try again ${waitInWords(seconds)}`, { headers: { 'retry-after': String(seconds) } })
  }
}
