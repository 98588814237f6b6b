// Issue 36 item 1, from the outside: with PostgreSQL gone (every connection cut, new ones closed
// at once) the app stays up; the API answers 503 ERR_DATABASE_UNAVAILABLE and pages a 503 page,
// without trying a connection for each request; the outage is logged once, as JSON; when the
// server is back the app serves again by itself.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import t from 'tap'
import { buildApp } from '../../host-app/app.ts'
import { quoteIdentifier } from '../../core/db/database.ts'
import { isolatedEnv } from '../helpers/test-env.ts'
import { login } from '../helpers/app.ts'
import { until } from '../helpers/eventually.ts'
import { startTcpProxy, throughProxy } from '../helpers/tcp-proxy.ts'
import { postgresUnreachable, TEST_DATABASE_URL } from '../core/db/engines.ts'

t.test('PostgreSQL gone: fast 503s with a code, one log line, recovery on its own', async (t) => {
  const reason = await postgresUnreachable()
  if (reason) return t.pass(`skipped: ${reason}`)
  const target = new URL(TEST_DATABASE_URL)
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  const schema = `t_${randomBytes(6).toString('hex')}`
  await admin.query(`create schema ${quoteIdentifier(schema)}`)
  const { env, cleanup } = await isolatedEnv()
  const lines: Array<Record<string, unknown>> = []
  const app = await buildApp({
    env: { ...env, DATABASE_URL: throughProxy(TEST_DATABASE_URL, proxy), DATABASE_SCHEMA: schema, USERS_STORE: 'database', DATABASE_CONNECT_TIMEOUT_MS: 1000 },
    logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line)) } } },
  })
  t.teardown(async () => {
    await app.close()
    await proxy.close()
    await cleanup()
    await admin.query(`drop schema ${quoteIdentifier(schema)} cascade`)
    await admin.end()
  })
  await app.ready()
  // Issue 36 item 11: pg's own faults reach nobody's stderr as text, only the app's JSON lines.
  const stderr: string[] = []
  const write = process.stderr.write.bind(process.stderr)
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => { stderr.push(String(chunk)); return (write as any)(chunk, ...rest) }) as typeof process.stderr.write
  t.teardown(() => { process.stderr.write = write })
  const cookie = await login(app, 'admin@example.com')
  const users = () => app.inject({ method: 'GET', url: '/api/users', headers: { cookie } })
  t.equal((await users()).statusCode, 200, 'the API answers while PostgreSQL is there')

  proxy.cut()
  const first = await users()
  t.equal(first.statusCode, 503, 'the first request after the cut answers 503')
  t.equal(first.json().code, 'ERR_DATABASE_UNAVAILABLE', 'with a stable code')
  await until(t, 'the database is seen as down', async () => lines.some((l) => l.event === 'database-unreachable'))

  const attemptsBefore = proxy.accepted()
  const answers = []
  for (let i = 0; i < 20; i++) answers.push(await users())
  t.same([...new Set(answers.map((a) => `${a.statusCode} ${a.json().code}`))], ['503 ERR_DATABASE_UNAVAILABLE'], 'every request answers 503 ERR_DATABASE_UNAVAILABLE')
  t.ok(answers.every((a) => a.headers['retry-after']), 'with a Retry-After')
  // Only the background probe (one a second) tries the server: the requests fail without trying.
  t.ok(proxy.accepted() - attemptsBefore <= 3, `20 requests tried ${proxy.accepted() - attemptsBefore} connections (at most the probes')`)

  const page = await app.inject({ method: 'GET', url: '/admin/people', headers: { cookie, accept: 'text/html' } })
  t.equal(page.statusCode, 503, 'a page answers 503')
  t.match(page.headers['content-type'], /text\/html/, 'as an HTML page')

  proxy.restore()
  await until(t, 'the API answers again', async () => (await users()).statusCode === 200)
  await until(t, 'the recovery is logged', async () => lines.some((l) => l.event === 'database-reachable'))
  t.equal(lines.filter((l) => l.event === 'database-unreachable').length, 1, 'the outage is logged once')
  t.notOk(lines.some((l) => l.msg === 'request failed' && l.level === 50 && JSON.stringify(l).includes('ERR_DATABASE_UNAVAILABLE')), 'not once per failed request')
  process.stderr.write = write
  t.same(stderr.filter((chunk) => chunk.split('\n').filter(Boolean).some((line) => { try { JSON.parse(line); return false } catch { return true } })), [], 'nothing but JSON reached stderr')
  // A pg connection carries its backend's cancel key (processID, secretKey): no line names them.
  t.notOk(lines.some((l) => /secretKey|processID/.test(JSON.stringify(l))), 'no cancel key in any log line')
  const urls = [TEST_DATABASE_URL, throughProxy(TEST_DATABASE_URL, proxy)]
  t.notOk(lines.some((l) => urls.some((url) => JSON.stringify(l).includes(url))), 'no connection string in any log line')
})
