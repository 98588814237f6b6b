// Issue 36 item 3: with Redis down every sign-in answered 500 ERR_INTERNAL (after up to 15 s)
// and ioredis printed a non-JSON line to stderr for each reconnect. Decided: the shared sign-in
// throttle falls back to one of this instance's own (it still locks a guesser out), says so once
// in the log, and is shared again once Redis answers. Redis is cut through a proxy of the test's.
import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { eventually } from '../../helpers/eventually.ts'
import { startTcpProxy, throughProxy } from '../../helpers/tcp-proxy.ts'

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

t.test('Redis down: sign-in answers from a local throttle, logged once; shared again when it is back', async (t) => {
  const target = new URL(REDIS_URL)
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1500, retryStrategy: () => null })
  probe.on('error', () => {})
  try {
    await probe.connect()
  } catch (error) {
    return t.pass(`skipped: Redis not reachable at ${REDIS_URL}: ${(error as Error).message}`)
  }
  t.teardown(() => probe.disconnect())
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) })
  t.teardown(() => proxy.close())
  const lines: Array<Record<string, unknown>> = []
  const app = await buildTestApp(t, {
    env: { REDIS_URL: throughProxy(REDIS_URL, proxy) },
    logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line)) } } },
  })
  const signIn = (email: string, password = 'password') => app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } })
  t.equal((await signIn('admin@example.com')).statusCode, 200, 'sign-in works through Redis')

  // Everything the process writes to stderr while Redis is gone.
  const stderr: string[] = []
  const write = process.stderr.write
  process.stderr.write = ((chunk: string | Uint8Array) => { stderr.push(String(chunk)); return true }) as typeof process.stderr.write
  t.teardown(() => { process.stderr.write = write })

  proxy.cut()
  const started = Date.now()
  const down = await signIn('admin@example.com')
  const tookMs = Date.now() - started
  t.equal(down.statusCode, 200, `a sign-in with Redis down succeeds (${down.statusCode} ${down.json().code ?? ''})`)
  // Bound generous for a loaded machine: before, 15 s and a 500.
  t.ok(tookMs < 5000, `without waiting for Redis (${tookMs} ms)`)
  const guesser = `guesser-${randomBytes(4).toString('hex')}@example.com`
  const guesses = []
  for (let i = 0; i < 6; i++) guesses.push((await signIn(guesser, 'wrong')).statusCode)
  t.same(guesses, [401, 401, 401, 401, 401, 429], 'the local throttle still locks a guesser out after five failures')
  await eventually(() => lines.some((l) => l.event === 'redis-unreachable'), 5000)
  t.equal(lines.filter((l) => l.event === 'login-throttle-local').length, 1, 'the fallback is logged once')
  t.equal(lines.filter((l) => l.event === 'redis-unreachable').length, 1, 'the lost connection is logged once')

  proxy.restore()
  const backAt = `back-${randomBytes(4).toString('hex')}@example.com`
  const shared = await eventually(async () => {
    await signIn(backAt, 'wrong')
    return lines.some((l) => l.event === 'login-throttle-shared')
  }, 20_000)
  t.ok(shared, 'once Redis answers the throttle is shared again, and says so')
  t.ok(await probe.exists(`login-throttle:email:${backAt}`), 'failures are counted in Redis again')
  process.stderr.write = write
  t.same(stderr.filter((line) => line.split('\n').filter(Boolean).some((l) => !isJson(l))), [], 'nothing but JSON reached stderr')
})

function isJson(line: string): boolean {
  try {
    JSON.parse(line)
    return true
  } catch {
    return false
  }
}
