import type { Redis } from 'ioredis'
import type { FaultLog } from '../http/late-log.ts'

/**
 * Gives a Redis connection its 'error' listener (without one ioredis prints every failed
 * reconnect to stderr, a line each, not JSON) and logs its outages once each: when it is lost and
 * when it is back. Returns the same connection.
 */
export function watchRedis(redis: Redis, log: FaultLog): Redis {
  let lost = false
  const lose = (fault: { code?: string; message: string }) => {
    if (lost) return
    lost = true
    log.warn({ event: 'redis-unreachable', fault }, 'Redis is unreachable; reconnecting in the background')
  }
  redis.on('error', (error: Error & { code?: string }) => lose({ ...(error.code ? { code: error.code } : {}), message: error.message }))
  // A connection closed by the other side without a socket error (a server or proxy going away)
  // only reconnects; a close asked for (disconnect at shutdown) does not.
  redis.on('reconnecting', () => lose({ message: 'the connection closed' }))
  redis.on('ready', () => {
    if (!lost) return
    lost = false
    log.info({ event: 'redis-reachable' }, 'Redis is reachable again')
  })
  return redis
}
