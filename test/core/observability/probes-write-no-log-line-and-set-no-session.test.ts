// GET /healthz says the event loop turns: no session cookie, no rate limit, and no access line (a
// probe every few seconds per balancer would drown the log); /readyz writes no line either. That
// liveness asks nothing of the database is checked with the database cut
// (readiness-turns-unready-while-postgresql-is-cut.test.ts).
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { loggerOptions } from '../../../core/http/access-log.ts'
import { buildTestApp } from '../../helpers/app.ts'
import { logLinesUntil } from '../../helpers/log-file.ts'

t.test('/healthz and /readyz: 200, no session, no log line, however often', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'probes-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const file = path.join(dir, 'app.log')
  const app = await buildTestApp(t, { logger: loggerOptions('info', file) })

  for (let i = 0; i < 300; i++) {
    const response = await app.inject({ url: '/healthz' })
    if (response.statusCode !== 200) return t.fail(`probe ${i}: ${response.statusCode}`)
    if (i === 0) {
      t.same(response.json(), { status: 'ok' })
      t.notOk(response.headers['set-cookie'], 'no session cookie')
    }
  }
  t.pass('300 probes in a row, none refused (no rate limit)')
  const ready = await app.inject({ url: '/readyz' })
  t.equal(ready.statusCode, 200)
  t.same(ready.json(), { status: 'ready', checks: { lifecycle: 'ok', migrations: 'ok', ...(process.env.DATABASE_URL ? { database: 'ok' } : {}) } })
  t.notOk(ready.headers['set-cookie'], 'no session cookie')

  // A request that is logged, after the probes: once its line is in the file, theirs would be too.
  t.equal((await app.inject({ url: '/login' })).statusCode, 200)
  const lines = await logLinesUntil(file, (all) => all.some((l) => l.route === '/login'))
  t.ok(lines.some((l) => l.route === '/login'), 'the page\'s line arrived')
  t.same(lines.filter((l) => l.route === '/healthz' || l.route === '/readyz'), [], 'no line for either probe')
})
