// Issue 36 item 2: with PostgreSQL paused every request hung for the whole outage (31 s seen) and
// nothing was logged. A server that accepts and never answers, a statement that runs too long and
// a lock never released each end in a 503 with a code within the configured bound; the fault is
// logged once, as JSON; migrations, which wait behind another instance's by design, are not bound.
import { randomBytes } from 'node:crypto'
import { setTimeout as delay } from 'node:timers/promises'
import { sql } from 'kysely'
import pg from 'pg'
import t from 'tap'
import { openDatabase, quoteIdentifier, type DatabaseOptions } from '../../../core/db/database.ts'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { until } from '../../helpers/eventually.ts'
import { startTcpProxy, throughProxy, type TcpProxy } from '../../helpers/tcp-proxy.ts'
import { postgresUnreachable, TEST_DATABASE_URL } from './engines.ts'

const TIMEOUTS = { connectMs: 1000, statementMs: 1000, lockMs: 300 }
// What a hung call is given before the test calls it hung: far above every bound here.
const HUNG_AFTER_MS = 30_000

async function setUp(t: any, options: Partial<DatabaseOptions> = {}) {
  const target = new URL(TEST_DATABASE_URL)
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  const schema = `t_${randomBytes(6).toString('hex')}`
  await admin.query(`create schema ${quoteIdentifier(schema)}`)
  const database = openDatabase<any>({ url: throughProxy(TEST_DATABASE_URL, proxy), schema, timeouts: TIMEOUTS, ...options })
  const lines: Array<Record<string, unknown>> = []
  const keep = (level: string) => (object: object, msg: string) => { lines.push(JSON.parse(JSON.stringify({ level, ...object, msg }))) }
  database.reportFaultsTo({ info: keep('info'), warn: keep('warn'), error: keep('error') })
  t.teardown(async () => {
    await database.close()
    await proxy.close()
    await admin.query(`drop schema ${quoteIdentifier(schema)} cascade`)
    await admin.end()
  })
  return { proxy, admin, database, db: database.db, lines, schema }
}

/** The error `work` fails with and how long it took, or 'hung'. */
async function outcome(work: Promise<unknown>): Promise<{ error?: { code?: string; statusCode?: number; message?: string }; ms: number } | 'hung'> {
  const started = Date.now()
  const settled = work.then(() => ({ ms: Date.now() - started }), (error) => ({ error, ms: Date.now() - started }))
  const hung = delay(HUNG_AFTER_MS, 'hung' as const, { ref: false })
  return Promise.race([settled, hung])
}

t.test('a paused server: 503 ERR_DATABASE_UNAVAILABLE within the bound, logged once, then fast; back by itself', async (t) => {
  const reason = await postgresUnreachable()
  if (reason) return t.pass(`skipped: ${reason}`)
  const { proxy, db, lines }: { proxy: TcpProxy; db: any; lines: Array<Record<string, unknown>> } = await setUp(t)
  await Promise.all(Array.from({ length: 3 }, () => sql`select pg_sleep(0.05)`.execute(db)))

  proxy.pause()
  const first = await outcome(sql`select 1`.execute(db))
  t.not(first, 'hung', 'a statement on an open connection does not hang')
  if (first === 'hung') return
  t.equal(first.error?.code, 'ERR_DATABASE_UNAVAILABLE', 'it fails with a stable code')
  // statement_timeout + 2 s of grace, with headroom for a loaded machine.
  t.ok(first.ms < TIMEOUTS.statementMs + 2000 + 5000, `within the bound (${first.ms} ms)`)
  const fresh = await outcome(Promise.all(Array.from({ length: 5 }, () => sql`select 1`.execute(db))))
  t.not(fresh, 'hung', 'statements that need a new connection do not hang either')
  if (fresh !== 'hung') t.equal(fresh.error?.code, 'ERR_DATABASE_UNAVAILABLE', 'and fail with the same code')
  await until(t, 'the server is seen as down', () => lines.some((l) => l.event === 'database-unreachable'))
  const attempts = proxy.accepted()
  const later = await Promise.all(Array.from({ length: 20 }, () => outcome(sql`select 1`.execute(db))))
  t.ok(later.every((o) => o !== 'hung' && o.error?.code === 'ERR_DATABASE_UNAVAILABLE'), 'while it is down every statement fails with the code')
  t.ok(proxy.accepted() - attempts <= 3, `without trying a connection each (${proxy.accepted() - attempts} tried, the probes')`)

  proxy.restore()
  await until(t, 'statements succeed again', async () => sql`select 1`.execute(db).then(() => true, () => false))
  await until(t, 'the recovery is logged', () => lines.some((l) => l.event === 'database-reachable'))
  t.equal(lines.filter((l) => l.event === 'database-unreachable').length, 1, 'the outage is logged once')
  t.ok(lines.every((l) => typeof l.msg === 'string' && !JSON.stringify(l).includes('postgres://')), 'log lines carry no connection string')
})

t.test('statement_timeout and lock_timeout end a statement with 503 ERR_DATABASE_TIMEOUT', async (t) => {
  const reason = await postgresUnreachable()
  if (reason) return t.pass(`skipped: ${reason}`)
  const { admin, db, schema } = await setUp(t)
  const slow = await outcome(sql`select pg_sleep(60)`.execute(db))
  t.not(slow, 'hung', 'a long statement is cancelled')
  if (slow !== 'hung') {
    t.equal(slow.error?.code, 'ERR_DATABASE_TIMEOUT', 'by statement_timeout, with a stable code')
    t.equal(slow.error?.statusCode, 503, 'and a 503')
  }

  await db.schema.createTable('notes').addColumn('id', 'integer', (c: any) => c.primaryKey()).execute()
  await db.insertInto('notes').values({ id: 1 }).execute()
  await admin.query('begin')
  await admin.query(`select * from ${quoteIdentifier(schema)}.notes for update`)
  const blocked = await outcome(db.updateTable('notes').set({ id: 2 }).where('id', '=', 1).execute())
  await admin.query('rollback')
  t.not(blocked, 'hung', 'a statement waiting for a lock gives up')
  if (blocked !== 'hung') t.equal(blocked.error?.code, 'ERR_DATABASE_TIMEOUT', 'by lock_timeout, with a stable code')
  t.same(await db.selectFrom('notes').selectAll().execute(), [{ id: 1 }], 'the connection serves again afterwards')
})

t.test('migrations wait behind another instance\'s for longer than the timeouts', async (t) => {
  const reason = await postgresUnreachable()
  if (reason) return t.pass(`skipped: ${reason}`)
  const { admin, db } = await setUp(t)
  // Kysely's migration lock on PostgreSQL (its postgres-adapter.js), as another instance migrating holds it.
  const other = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await other.connect()
  t.teardown(() => other.end())
  await other.query('select pg_advisory_lock(3853314791062309107)')
  const migrating = migrateToLatest(db, { '001-notes': { up: (kysely) => kysely.schema.createTable('notes').addColumn('id', 'integer').execute() } })
  const settled = migrating.then(() => 'done', (error: Error) => error.message)
  // Released only once the migration has waited longer than statement_timeout + the client's grace.
  const waitedMs = TIMEOUTS.statementMs + 2000 + 500
  await until(t, 'the migration has waited past every timeout', async () => {
    const { rows } = await admin.query("select 1 from pg_stat_activity where query like '%pg_advisory_lock%' and wait_event_type = 'Lock' and now() - query_start > $1 * interval '1 millisecond'", [waitedMs])
    return rows.length > 0 || (await Promise.race([settled, Promise.resolve('running')])) !== 'running'
  })
  await other.query('select pg_advisory_unlock(3853314791062309107)')
  t.equal(await settled, 'done', 'the migration ran once the lock was free')
  t.same(await sql`select count(*)::int as n from notes`.execute(db).then((r: any) => r.rows), [{ n: 0 }], 'its table is there')
  t.same(await sql`show statement_timeout`.execute(db).then((r: any) => r.rows), [{ statement_timeout: '1s' }], 'and the connection it used has its timeout back')
})
