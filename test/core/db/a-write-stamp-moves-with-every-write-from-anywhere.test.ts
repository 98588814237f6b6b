// writeStampOf (core/db/database.ts) is what lets a cache keep an answer without serving one from
// before a change. It must move with every statement of this process that may write, whichever way
// it is run (a plain write, a write that returns rows, one inside a transaction, a failed one, a
// schema change) and stay still for reads. On SQLite it must also move with another connection's
// commit; on PostgreSQL with another instance's commit to a watched table once notified, and with
// nothing else (unwatched tables, other schemas, rollbacks); and while it cannot hear other
// instances it must never give the same value twice.
import BetterSqlite3 from 'better-sqlite3'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import t from 'tap'
import { openDatabase, quoteIdentifier, writeStampOf } from '../../../core/db/database.ts'
import { binaryCopyOf } from '../../../core/db/postgres-binary-copy.ts'
import { listenerName, notifyWritesTo, postgresWriteStamp } from '../../../core/db/postgres-write-stamp.ts'
import { eventually, until } from '../../helpers/eventually.ts'
import { postgresUnreachable, TEST_DATABASE_URL } from './engines.ts'

t.test('SQLite: reads keep the stamp, every kind of write moves it', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'write-stamp-'))
  const file = path.join(dir, 'app.sqlite')
  const database = openDatabase<any>({ sqliteFile: file })
  t.teardown(async () => {
    await database.close()
    await rm(dir, { recursive: true, force: true })
  })
  const { db } = database
  const stamp = writeStampOf(db)!
  t.type(stamp, 'function', 'SQLite has a write stamp')

  const moves = async (what: string, action: () => Promise<unknown> | unknown, expected = true) => {
    const before = await stamp()
    await action()
    t.equal(await stamp() !== before, expected, `${what} ${expected ? 'moves' : 'keeps'} the stamp`)
  }
  await moves('a schema change', () => db.schema.createTable('notes').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('body', 'text').execute())
  await moves('an insert', () => db.insertInto('notes').values({ id: 1, body: 'a' }).execute())
  await moves('an insert that returns its row', () => db.insertInto('notes').values({ id: 2, body: 'b' }).returning('id').execute())
  await moves('an update', () => db.updateTable('notes').set({ body: 'c' }).where('id', '=', 1).execute())
  await moves('a delete', () => db.deleteFrom('notes').where('id', '=', 2).execute())
  await moves('a write inside a transaction', () => db.transaction().execute((tx) => tx.insertInto('notes').values({ id: 3, body: 'd' }).execute()))
  await moves('raw SQL that writes', () => sql`update notes set body = 'e'`.execute(db))
  await moves('a select', () => db.selectFrom('notes').selectAll().execute(), false)
  await moves('a count', () => db.selectFrom('notes').select((eb) => eb.fn.countAll().as('n')).executeTakeFirst(), false)
  await moves('asking for the stamp again', () => stamp(), false)

  // Another connection to the same file (another process would look the same to SQLite).
  const other = new BetterSqlite3(file)
  t.teardown(() => other.close())
  await moves('a commit by another connection', () => other.prepare("insert into notes (id, body) values (9, 'elsewhere')").run())
  await moves('a read by another connection', () => other.prepare('select * from notes').all(), false)

  // The stamp is read once per turn of the event loop, at its end: a commit by another connection
  // after the stamp was asked for, in the same turn, is in the stamp it gets.
  const before = await stamp()
  const asked = stamp()
  other.prepare("insert into notes (id, body) values (10, 'after the ask')").run()
  t.not(await asked, before, 'a commit after the ask, in the same turn, moves the stamp the ask gets')
  const [x, y] = [stamp(), stamp()]
  t.equal(await x, await y, 'two asks in one turn get one answer')
})

t.test('PostgreSQL: this instance\'s writes move it at once, another instance\'s commits to watched tables once notified', async (t) => {
  const reason = await postgresUnreachable()
  if (reason) return t.pass(`skipped: ${reason}`)
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  const schemas = [`t_${randomBytes(6).toString('hex')}`, `t_${randomBytes(6).toString('hex')}`]
  for (const schema of schemas) await admin.query(`create schema ${quoteIdentifier(schema)}`)
  // Two instances on one schema, and a neighbour in a schema of its own.
  const [a, b, neighbour] = [schemas[0], schemas[0], schemas[1]].map((schema) => openDatabase<any>({ url: TEST_DATABASE_URL, schema }))
  t.teardown(async () => {
    for (const database of [a, b, neighbour]) await database!.close()
    for (const schema of schemas) await admin.query(`drop schema ${quoteIdentifier(schema)} cascade`)
    await admin.end()
  })
  for (const database of [a!, neighbour!]) {
    await database.db.schema.createTable('notes').addColumn('id', 'integer', (c) => c.primaryKey()).addColumn('body', 'text').execute()
    await database.db.schema.createTable('scratch').addColumn('id', 'integer', (c) => c.primaryKey()).execute()
    await notifyWritesTo(['notes']).up(database.db)
  }
  // Synchronous on PostgreSQL: notifications move it as they arrive.
  const stamp = writeStampOf(b!.db)! as () => number
  t.type(stamp, 'function', 'PostgreSQL has a write stamp')
  t.not(stamp(), stamp(), 'before its listening connection is up, no two calls agree (nothing may be kept)')
  await until(t, 'it listens', () => stamp() === stamp())

  const moves = async (what: string, action: () => Promise<unknown>, expected = true) => {
    const before = stamp()
    await action()
    t.equal(stamp() !== before, expected, `${what} ${expected ? 'moves' : 'keeps'} the stamp at once`)
  }
  // Its own writes go to a table nobody watches: moved at once by what it tracks itself, with no
  // notification coming back later to move it again during the counts below.
  await moves('a read', () => b!.db.selectFrom('notes').selectAll().execute(), false)
  await moves('a read copied out in binary (binaryCopyOf)', () => binaryCopyOf(b!.db, sql`select body from notes`), false)
  await moves('its own insert', () => b!.db.insertInto('scratch').values({ id: 1 }).execute())
  await moves('its own transaction', () => b!.db.transaction().execute((tx) => tx.updateTable('scratch').set({ id: 10 }).execute()))
  await moves('its own failed write', () => b!.db.insertInto('scratch').values({ id: 10 }).execute().catch(() => {}))

  /**
   * Another instance's writes, then a fence (a watched write of its own): how far the stamp moved
   * once `expected` notifications arrived. They arrive in commit order, so a notification the
   * writes caused comes before the fence's and shows as one more.
   */
  const movedBy = async (writes: () => Promise<unknown>, expected: number) => {
    const before = stamp()
    await writes()
    await a!.db.insertInto('notes').values({ id: 100 + before, body: 'fence' }).execute()
    await until(t, `${expected} notification(s) arrive`, () => stamp() - before >= expected)
    return stamp() - before
  }
  t.equal(await movedBy(async () => {}, 1), 1, 'another instance\'s commit to a watched table moves it once notified')
  {
    // Its own commit: moved once when it completes (then the fence). Its notification comes back
    // on its own listener too, a moment later, and must not move it again: watched for half a
    // second after the fence, ten times longer than a notification takes here.
    const before = stamp()
    t.equal(await movedBy(() => b!.db.insertInto('notes').values({ id: 1, body: 'mine' }).execute(), 2), 2)
    await eventually(() => stamp() - before !== 2, 500)
    t.equal(stamp() - before, 2, 'its own commit to a watched table moves it once, when it completes, not again when its notification comes back')
  }
  t.equal(await movedBy(() => a!.db.insertInto('scratch').values({ id: 2 }).execute(), 1), 1, 'another instance\'s write to an unwatched table does not')
  t.equal(await movedBy(() => neighbour!.db.insertInto('notes').values({ id: 3, body: 'next door' }).execute(), 1), 1, 'a write in another schema does not')
  t.equal(await movedBy(() => a!.db.transaction().execute(async (tx) => {
    await tx.insertInto('notes').values({ id: 4, body: 'never' }).execute()
    throw new Error('rolled back')
  }).catch(() => {}), 1), 1, 'a rolled-back write does not')
  t.equal(await movedBy(() => a!.db.transaction().execute(async (tx) => {
    await tx.insertInto('notes').values({ id: 5, body: 'one' }).execute()
    await tx.updateTable('notes').set({ body: 'two' }).where('id', '=', 5).execute()
  }), 2), 2, 'a committed transaction of two writes: one notification, then the fence\'s')

  // Behind a pooler that cannot keep a LISTEN (DATABASE_LISTEN=false): never a listener, never the same stamp twice.
  const pooled = openDatabase<any>({ url: TEST_DATABASE_URL, schema: schemas[0]!, listen: false })
  t.teardown(() => pooled.close())
  const pooledStamp = writeStampOf(pooled.db)! as () => number
  await pooled.db.selectFrom('notes').selectAll().execute()
  const seen = new Set(Array.from({ length: 50 }, () => pooledStamp()))
  const listeners = async () => Number((await admin.query('select count(*) as n from pg_stat_activity where application_name = $1', [listenerName(schemas[0])])).rows[0].n)
  t.equal(seen.size, 50, 'listen: false: every call gives a new stamp')
  // A listener, had one been started, connects within a second here (B's did, above).
  let count = 1
  await eventually(async () => (count = await listeners()) !== 1, 3000)
  t.equal(count, 1, 'listen: false opens no listening connection (the one there is B\'s)')

  // The listening connection dies: until it is back, nothing may be kept.
  await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [listenerName(schemas[0])])
  await until(t, 'the loss is noticed', () => stamp() !== stamp())
  await until(t, 'it listens again', () => stamp() === stamp())
  t.equal(await movedBy(async () => {}, 1), 1, 'listening again, another instance\'s commit moves it')
})

t.test('PostgreSQL: a listener whose server goes silent is found by its ping and replaced', async (t) => {
  const reason = await postgresUnreachable()
  if (reason) return t.pass(`skipped: ${reason}`)
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  const schema = `t_${randomBytes(6).toString('hex')}`
  await admin.query(`create schema ${quoteIdentifier(schema)}`)
  const database = openDatabase<any>({ url: TEST_DATABASE_URL, schema })
  const writes = postgresWriteStamp({ loadPg: async () => pg, connectionString: TEST_DATABASE_URL, schema, pingMs: 200, pingTimeoutMs: 1500, retryMs: 100 })
  const stopped: number[] = []
  t.teardown(async () => {
    for (const pid of stopped) process.kill(pid, 'SIGCONT')
    await writes.close()
    await database.close()
    await admin.query(`drop schema ${quoteIdentifier(schema)} cascade`)
    await admin.end()
  })
  await database.db.schema.createTable('notes').addColumn('id', 'integer').execute()
  await notifyWritesTo(['notes']).up(database.db)
  const stamp = writes.stamp
  await until(t, 'it listens', () => stamp() === stamp())

  // The listener's server process is stopped: no reset, no answer, its socket just goes quiet.
  const { rows } = await admin.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1 and state = 'idle'", [listenerName(schema)])
  t.equal(rows.length, 1, 'one listening connection')
  process.kill(rows[0]!.pid, 'SIGSTOP')
  stopped.push(rows[0]!.pid)
  await until(t, 'the unanswered ping is noticed', () => stamp() !== stamp())
  t.pass('while it is not heard, no two calls agree')
  await until(t, 'a new connection listens', () => stamp() === stamp())
  const before = stamp()
  await database.db.insertInto('notes').values({ id: 1 }).execute()
  await until(t, 'a commit is heard on the new connection', () => stamp() !== before)
  t.pass('the new connection hears commits')
})
