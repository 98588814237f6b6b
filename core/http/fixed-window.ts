import { LRUCache } from 'lru-cache'

/**
 * Counts hits per key (a client address) in fixed windows, bounded in memory (LRU) so a flood of
 * keys cannot grow it. `hit(key)` answers null while the key is within `max`, else the whole
 * seconds until its window resets (at least 1), for a Retry-After. Each guard that uses it keeps
 * its own error code and message.
 */
export function fixedWindow(options: { max: number; windowMs: number; capacity: number }, now: () => number = Date.now) {
  const windows = new LRUCache<string, { count: number; resetAt: number }>({ max: options.capacity })
  return function hit(key: string): number | null {
    const at = now()
    let window = windows.get(key)
    if (!window || window.resetAt <= at) {
      window = { count: 0, resetAt: at + options.windowMs }
      windows.set(key, window)
    }
    window.count += 1
    return window.count > options.max ? Math.max(1, Math.ceil((window.resetAt - at) / 1000)) : null
  }
}
