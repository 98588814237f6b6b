// The deployed logger (what npm start runs): one access line per request, written asynchronously
// to a real file, carrying method, route, status, time, user and request id, and never a cookie,
// a password or a query string.
import { spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pino from 'pino'
import t from 'tap'
import { loggerOptions } from '../../../core/http/access-log.ts'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { logLinesUntil } from '../../helpers/log-file.ts'

t.test('one line per request, with route, status, time and user; no secret in the file', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'access-log-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'app.log')
  const app = await buildTestApp(t, { logger: loggerOptions('info', file) })

  const cookie = await login(app, DEMO.admin.email)
  const users = await app.inject({ url: '/api/users/u-staff?token=secret-in-query', headers: { cookie } })
  t.equal(users.statusCode, 200)
  const missing = await app.inject({ url: '/no-such-page?next=//evil.example' })
  t.equal(missing.statusCode, 404)

  const lines = await logLinesUntil(file, (all) => all.filter((l) => l.msg === 'request').length >= 3)
  const access = lines.filter((l) => l.msg === 'request')
  t.equal(access.length, 3, 'one access line for each of the three requests')
  t.notOk(lines.some((l) => l.msg === 'incoming request' || l.msg === 'request completed'), 'Fastify\'s own two lines per request are off')
  t.match(access[0], { method: 'POST', route: '/api/auth/login', status: 200, user: DEMO.admin.id }) // signed in by this request
  t.match(access[1], { method: 'GET', route: '/api/users/:id', status: 200, user: DEMO.admin.id })
  t.match(access[2], { method: 'GET', route: null, status: 404, user: null })
  for (const line of access) {
    t.type(line.ms, 'number')
    t.type(line.reqId, 'string', 'the request id is on the line')
  }
  t.equal(new Set(access.map((l) => l.reqId)).size, 3)

  const text = await readFile(file, 'utf8')
  const cookieValue = cookie.split('=').slice(1).join('=')
  t.notOk(text.includes(cookieValue.slice(0, 40)), 'no cookie')
  t.notMatch(text, /password/i, 'no password')
  t.notMatch(text, /secret-in-query|evil\.example/, 'no query string')
})

t.test('lines are written asynchronously (batches: log-batches-keep-every-line-whole-and-in-order.test.ts), and a lone line still arrives within a second or so', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'access-log-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'app.log')
  const app = await buildTestApp(t, { logger: loggerOptions('info', file) })
  const stream = (app.log as unknown as Record<symbol, { sync?: boolean }>)[pino.symbols.streamSym]
  t.equal(stream?.sync, false, 'sonic-boom with sync: false')
  const sent = Date.now()
  await app.inject({ url: '/login' })
  const lines = await logLinesUntil(file, (all) => all.some((l) => l.msg === 'request'))
  t.ok(lines.some((l) => l.msg === 'request'), 'the one line is written although far below a batch')
  t.ok(Date.now() - sent < 5_000, `within ${Date.now() - sent} ms`)
})

t.test('lines still buffered are written when the process exits', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'access-log-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'exit.log')
  const script = `const { loggerOptions } = await import(${JSON.stringify(new URL('../../../core/http/access-log.ts', import.meta.url).href)});
    const { default: Fastify } = await import('fastify');
    const app = Fastify({ logger: loggerOptions('info', ${JSON.stringify(file)}) });
    app.log.info('last words'); process.exit(0)`
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8' })
  t.equal(child.status, 0, child.stderr)
  t.match(await readFile(file, 'utf8'), /last words/)
})

t.test('adding a line costs the same whatever is waiting: the batch is not measured again on every line', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'access-log-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'batch.log')
  const options = loggerOptions('info', file) as { level: string; stream: pino.DestinationStream }
  const log = pino({ level: options.level }, options.stream)
  // What sonic-boom's string mode did: Buffer.byteLength of the whole pending chunk before appending.
  const measured: number[] = []
  const byteLength = Buffer.byteLength
  Buffer.byteLength = ((value: Parameters<typeof byteLength>[0], encoding?: BufferEncoding) => {
    if (typeof value === 'string') measured.push(value.length)
    return byteLength(value, encoding)
  }) as typeof Buffer.byteLength
  const line = { method: 'GET', route: '/api/users', status: 200, ms: 0.4, user: 'u-admin', name: 'Zoë 名前' }
  try {
    for (let i = 0; i < 200; i++) log.info(line, 'request')
  } finally {
    Buffer.byteLength = byteLength
  }
  const longest = Math.max(0, ...measured)
  t.ok(longest < 500, `no string longer than one line is measured while lines are added (longest ${longest} chars)`)
  t.ok(measured.length <= 200, `at most one measure per line (${measured.length})`)
  log.flush()
  const lines = await logLinesUntil(file, (all) => all.length >= 200)
  t.equal(lines.length, 200, 'every line arrives')
  t.ok(lines.every((l) => (l as { name?: string }).name === 'Zoë 名前' && l.route === '/api/users'), 'whole, and non-ASCII text intact')
})
