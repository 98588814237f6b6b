import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import t, { type Test } from 'tap'
import { createMemoryLoginThrottle, type LoginThrottle } from '../../../core/auth/login-throttle.ts'
import { createRedisLoginThrottle } from '../../../core/auth/redis-login-throttle.ts'

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const options = { windowSeconds: 2, maxFailuresPerEmail: 3, maxFailuresPerClient: 5 }

// The same behaviour from the memory store and the shared (Redis) store.
async function contract(t: Test, make: () => LoginThrottle) {
  const a = make()
  t.equal(await a.retryAfter('x@example.com', 'c1'), 0)
  for (let i = 0; i < 3; i++) await a.recordFailure(i % 2 ? 'X@Example.com' : 'x@example.com', `c${i}`)
  const wait = await a.retryAfter('x@example.com', 'other')
  t.ok(wait >= 1 && wait <= 2, `locked by e-mail for ${wait} s`)
  t.equal(await a.retryAfter('y@example.com', 'other'), 0, 'another e-mail is free')
  for (let i = 0; i < 5; i++) await a.recordFailure(`n${i}@example.com`, 'bad-client')
  t.ok((await a.retryAfter('fresh@example.com', 'bad-client')) > 0, 'locked by client')
  await a.recordSuccess('x@example.com', 'c9')
  t.equal(await a.retryAfter('x@example.com', 'c9'), 0, 'success clears the e-mail window')
  await a.recordFailure('z@example.com', 'c1')
  await a.recordFailure('z@example.com', 'c1')
  await a.recordFailure('z@example.com', 'c1')
  await new Promise((r) => setTimeout(r, 2100))
  t.equal(await a.retryAfter('z@example.com', 'c1'), 0, 'the window expires')
}

t.test('memory throttle', async (t) => contract(t, () => createMemoryLoginThrottle(options)))

async function redisUnreachable(): Promise<string | false> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1500, retryStrategy: () => null })
  try {
    await probe.connect()
    await probe.ping()
    return false
  } catch (error) {
    return `Redis not reachable at ${REDIS_URL}: ${(error as Error).message}`
  } finally {
    probe.disconnect()
  }
}

t.test('redis throttle, shared by two instances', { skip: await redisUnreachable() }, async (t) => {
  const probe = new Redis(REDIS_URL)
  const prefix = `test-throttle-${randomBytes(4).toString('hex')}:`
  const second = new Redis(REDIS_URL)
  t.teardown(async () => {
    const keys = await probe.keys(`${prefix}*`)
    if (keys.length) await probe.del(...keys)
    probe.disconnect()
    second.disconnect()
  })
  await contract(t, () => createRedisLoginThrottle(probe, options, { prefix }))
  // Failures recorded through one connection lock the e-mail for the other (another instance).
  const onA = createRedisLoginThrottle(probe, options, { prefix })
  const onB = createRedisLoginThrottle(second, options, { prefix })
  for (let i = 0; i < 3; i++) await onA.recordFailure('shared@example.com', 'c')
  t.ok((await onB.retryAfter('shared@example.com', 'elsewhere')) > 0, 'instance B sees the lock made on A')
})
