// Queries are parsed and planned once per connection, not on every execution: on SQLite the
// same better-sqlite3 statement is reused, on PostgreSQL each SQL text is a named prepared
// statement. Reuse must not outlive what it assumed: a column added by another instance's
// migration while this one runs still shows in `select *`, on both engines.
import t from 'tap'
import { sql } from 'kysely'
import pg from 'pg'
import BetterSqlite3 from 'better-sqlite3'
import { randomBytes } from 'node:crypto'
import { openDatabase } from '../../../core/db/database.ts'
import { cachePreparedStatements } from '../../../core/db/sqlite-statement-cache.ts'
import { forEachEngine, postgresUnreachable, TEST_DATABASE_URL } from './engines.ts'

forEachEngine(t, 'a query is prepared once and survives a schema change', async (database, engine, t) => {
  const db = database.db
  await db.schema.createTable('things').addColumn('id', 'varchar(20)', (c) => c.primaryKey()).addColumn('name', 'varchar(50)').execute()
  await db.insertInto('things').values([{ id: 'a', name: 'Anna' }, { id: 'b', name: 'Bo' }]).execute()
  const byId = (id: string) => db.selectFrom('things').selectAll().where('id', '=', id).executeTakeFirst()
  t.same(await byId('a'), { id: 'a', name: 'Anna' })
  t.same(await byId('b'), { id: 'b', name: 'Bo' }, 'the same query with another value')

  if (engine === 'postgres') {
    // The pool's connections hold the statement by name (pg_prepared_statements is per session).
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like 'select * from "things"%'`.execute(db)
    t.equal(rows[0]!.n, 1, 'the select is a named prepared statement on this connection')
    // Another instance (another connection) alters the table under the running one.
    const { rows: [where] } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
    const other = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await other.connect()
    await other.query(`alter table "${where!.schema}".things add column note varchar(50) default 'x'`)
    await other.end()
  } else {
    await sql`alter table things add column note varchar(50) default 'x'`.execute(db)
  }
  t.same(await byId('a'), { id: 'a', name: 'Anna', note: 'x' }, 'the new column is in the answer, no error')
  t.same(await byId('b'), { id: 'b', name: 'Bo', note: 'x' }, 'and stays so')
})

t.test('SQLite: the same SQL gets the same statement, except while it is being iterated', async (t) => {
  const sqlite = new BetterSqlite3(':memory:')
  t.teardown(() => sqlite.close())
  const cached = cachePreparedStatements(sqlite)
  sqlite.exec('create table n (v integer); insert into n values (1), (2)')
  const first = cached.prepare('select v from n order by v')
  t.equal(cached.prepare('select v from n order by v'), first, 'prepared once')
  const iterating = (first as unknown as BetterSqlite3.Statement).iterate()
  iterating.next()
  const during = cached.prepare('select v from n order by v')
  t.not(during, first, 'a busy statement is not handed out again')
  t.same((during as unknown as BetterSqlite3.Statement).all(), [{ v: 1 }, { v: 2 }])
  iterating.return?.()
  t.equal(cached.prepare('select v from n order by v'), first, 'once the iteration ended, the cached one again')
})

t.test('PostgreSQL with preparedStatements: false (a pooler in transaction mode) prepares nothing by name', async (t: any) => {
  const reason = await postgresUnreachable()
  if (reason) return t.skip(reason)
  const schema = `t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  const database = openDatabase<any>({ url: TEST_DATABASE_URL, schema, preparedStatements: false })
  t.teardown(async () => {
    await database.close()
    await admin.query(`drop schema ${schema} cascade`)
    await admin.end()
  })
  const db = database.db
  await db.schema.createTable('things').addColumn('id', 'varchar(20)', (c) => c.primaryKey()).execute()
  await db.insertInto('things').values({ id: 'a' }).execute()
  t.same(await db.selectFrom('things').selectAll().where('id', '=', 'a').execute(), [{ id: 'a' }])
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(db)
  t.equal(rows[0]!.n, 0, 'no named statement on the connection')
})
