// writeStampOf (core/db/database.ts) is what lets a cache keep an answer without ever serving one
// from before a change: on SQLite it must move with every statement that may write, whichever way
// it is run (a plain write, a write that returns rows, one inside a transaction, a schema change)
// and with a commit by another connection to the same file, and must stay still for reads.
import BetterSqlite3 from 'better-sqlite3'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import t from 'tap'
import { openDatabase, writeStampOf } from '../../../core/db/database.ts'
import { openPostgresSchema, postgresUnreachable } from './engines.ts'

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
    const before = stamp()
    await action()
    t.equal(stamp() !== before, expected, `${what} ${expected ? 'moves' : 'keeps'} the stamp`)
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
})

t.test('PostgreSQL: no stamp, since other instances write without telling this one', async (t) => {
  const reason = await postgresUnreachable()
  if (reason) return t.skip(reason)
  const database = await openPostgresSchema(t)
  t.equal(writeStampOf(database.db), undefined)
})
