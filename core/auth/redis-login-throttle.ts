import type { Redis } from 'ioredis'
import type { LoginThrottle, ThrottleOptions } from './login-throttle.ts'

/**
 * The login throttle shared by every instance (REDIS_URL): the same fixed windows as the memory
 * throttle, kept in Redis with their expiry, so a client cannot spread guesses across instances.
 */
export function createRedisLoginThrottle(redis: Redis, options: ThrottleOptions, prefix = 'login-throttle:'): LoginThrottle {
  const windowMs = options.windowSeconds * 1000
  const keys = (email: string, client: string) => [
    { key: `${prefix}email:${email.trim().toLowerCase()}`, limit: options.maxFailuresPerEmail },
    { key: `${prefix}client:${client}`, limit: options.maxFailuresPerClient },
  ]
  return {
    async retryAfter(email, client) {
      let wait = 0
      for (const { key, limit } of keys(email, client)) {
        const [[, count], [, ttl]] = (await redis.multi().get(key).pttl(key).exec()) as [[unknown, string | null], [unknown, number]]
        if (count !== null && Number(count) >= limit && ttl > 0) wait = Math.max(wait, Math.ceil(ttl / 1000))
      }
      return wait
    },
    async recordFailure(email, client) {
      const tx = redis.multi()
      // The window starts at the first failure (NX) and is not extended by later ones.
      for (const { key } of keys(email, client)) tx.set(key, 0, 'PX', windowMs, 'NX').incr(key)
      await tx.exec()
    },
    async recordSuccess(email, client) {
      await redis.del(keys(email, client)[0]!.key)
    },
  }
}
