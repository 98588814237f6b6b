// Issue 36 item 1: any broken PostgreSQL connection (pg_terminate_backend, a failover, a pooler's
// idle timeout) killed the process with "Unhandled 'error' event". Idle or checked out, a broken
// connection must fail at most the statement it was running (503 ERR_DATABASE_UNAVAILABLE) and be
// replaced. Only this test's own backends are terminated: those behind its proxy.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { sql } from 'kysely'
import t from 'tap'
import { openDatabase, quoteIdentifier } from '../../../core/db/database.ts'
import { until } from '../../helpers/eventually.ts'
import { startTcpProxy, throughProxy } from '../../helpers/tcp-proxy.ts'
import { postgresUnreachable, TEST_DATABASE_URL } from './engines.ts'

t.test('terminated backends, idle and mid-statement, leave the process running and are replaced', async (t) => {
  const reason = await postgresUnreachable()
  if (reason) return t.pass(`skipped: ${reason}`)
  const target = new URL(TEST_DATABASE_URL)
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) })
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  const schema = `t_${randomBytes(6).toString('hex')}`
  await admin.query(`create schema ${quoteIdentifier(schema)}`)
  const database = openDatabase<any>({ url: throughProxy(TEST_DATABASE_URL, proxy), schema })
  t.teardown(async () => {
    await database.close()
    await proxy.close()
    await admin.query(`drop schema ${quoteIdentifier(schema)} cascade`)
    await admin.end()
  })
  const logged: string[] = []
  database.reportFaultsTo({ info: (_, m) => logged.push(m), warn: (_, m) => logged.push(m), error: (_, m) => logged.push(m) })
  const { db } = database
  const terminateOurs = async () => {
    const { rows } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where client_port = any($1::int[]) and pid <> pg_backend_pid()', [proxy.upstreamPorts()])
    return rows.length
  }

  // Several idle connections in the pool.
  await Promise.all(Array.from({ length: 4 }, () => sql`select pg_sleep(0.05)`.execute(db)))
  t.ok(await terminateOurs() >= 4, 'the pool\'s idle backends are terminated')
  await until(t, 'the pool answers again', async () => (await sql<{ one: number }>`select 1 as one`.execute(db).then((r) => r.rows[0]?.one, () => 0)) === 1)
  t.pass('the process survived its idle connections breaking')

  // A connection checked out and running a statement.
  const running = sql`select pg_sleep(30)`.execute(db).then(() => null, (error: { code?: string; statusCode?: number }) => error)
  await until(t, 'the statement runs', async () => (await admin.query("select 1 from pg_stat_activity where query like 'select pg_sleep(30)%' and client_port = any($1::int[])", [proxy.upstreamPorts()])).rowCount! > 0)
  await terminateOurs()
  const failure = await running
  t.equal(failure?.code, 'ERR_DATABASE_UNAVAILABLE', 'the statement on the broken connection fails with a stable code')
  t.equal(failure?.statusCode, 503, 'and a 503')
  await until(t, 'the pool answers again', async () => (await sql<{ one: number }>`select 1 as one`.execute(db).then((r) => r.rows[0]?.one, () => 0)) === 1)
  // The pool answering is the app's own connection; the state moves up when the health probe,
  // on a connection of its own, gets through, which may come a moment later.
  await until(t, 'the health probe gets through', async () => database.health().state === 'up')
  t.equal(database.health().state, 'up', 'the database is seen as up once a probe got through')
  t.ok(logged.some((m) => /broke/.test(m)), 'the broken connection was logged')
})
