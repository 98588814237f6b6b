import type { Redis } from 'ioredis'
import type { FaultLog } from '../http/late-log.ts'
import { createMemoryLoginThrottle, type LoginThrottle, type ThrottleOptions } from './login-throttle.ts'

/** After a failed Redis command, how long this instance counts alone before it asks Redis again. */
const LOCAL_FOR_MS = 5000

/**
 * The login throttle shared by every instance (REDIS_URL): the same fixed windows as the memory
 * throttle, kept in Redis with their expiry, so a client cannot spread guesses across instances.
 *
 * While Redis is unreachable a sign-in must neither fail nor wait for it: the throttle counts on
 * this instance alone (the memory throttle, so each instance still locks out a guesser after the
 * same number of failures, though across N instances a guesser gets up to N times as many), says
 * so once in the log, and goes back to Redis (saying so once) when a command succeeds again.
 */
export function createRedisLoginThrottle(redis: Redis, options: ThrottleOptions, settings: { prefix?: string; log?: FaultLog } = {}): LoginThrottle {
  const shared = sharedThrottle(redis, options, settings.prefix ?? 'login-throttle:')
  const local = createMemoryLoginThrottle(options)
  let localUntil = 0
  let alone = false

  const fallBack = (fault: { code?: string; message: string }) => {
    localUntil = Date.now() + LOCAL_FOR_MS
    if (alone) return
    alone = true
    settings.log?.warn({ event: 'login-throttle-local', fault }, 'Redis is unavailable: the sign-in throttle counts on this instance alone until it is back')
  }
  const run = async <T>(call: (throttle: LoginThrottle) => Promise<T>): Promise<T> => {
    // A disconnected client fails a command at once (no offline queue); asking would only cost time.
    if (redis.status !== 'ready') fallBack({ message: `the Redis connection is ${redis.status}` })
    if (Date.now() < localUntil) return call(local)
    try {
      const result = await call(shared)
      if (alone) {
        alone = false
        settings.log?.info({ event: 'login-throttle-shared' }, 'Redis is back: the sign-in throttle is shared again')
      }
      return result
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string }
      fallBack({ ...(typeof code === 'string' ? { code } : {}), message: String(message ?? error) })
      return call(local)
    }
  }
  return {
    retryAfter: (email, client) => run((throttle) => throttle.retryAfter(email, client)),
    recordFailure: (email, client) => run((throttle) => throttle.recordFailure(email, client)),
    recordSuccess: (email, client) => run((throttle) => throttle.recordSuccess(email, client)),
  }
}

function sharedThrottle(redis: Redis, options: ThrottleOptions, prefix: string): LoginThrottle {
  const windowMs = options.windowSeconds * 1000
  const keys = (email: string, client: string) => [
    { key: `${prefix}email:${email.trim().toLowerCase()}`, limit: options.maxFailuresPerEmail },
    { key: `${prefix}client:${client}`, limit: options.maxFailuresPerClient },
  ]
  return {
    async retryAfter(email, client) {
      let wait = 0
      for (const { key, limit } of keys(email, client)) {
        const [[countError, count], [ttlError, ttl]] = (await redis.multi().get(key).pttl(key).exec()) as [[Error | null, string | null], [Error | null, number]]
        if (countError ?? ttlError) throw countError ?? ttlError
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
