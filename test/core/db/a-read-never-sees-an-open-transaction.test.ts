// On SQLite the app has one connection. A select compiled once may run at once, without waiting
// its turn, only when nobody holds that connection: while a transaction is open on it, a read
// there would see the transaction's uncommitted rows (and rows it later rolls back). It must wait
// and then see what was committed. Queries waiting in numbers all get their turn.
import t from 'tap'
import { compiledOnce } from '../../../core/db/compiled-once.ts'
import { forEachEngine } from './engines.ts'

forEachEngine(t, 'a read never sees an open transaction', async (database, engine, t) => {
  const db = database.db
  await db.schema.createTable('notes').addColumn('id', 'varchar(20)', (c) => c.primaryKey()).addColumn('owner', 'varchar(20)').execute()
  const notesOf = compiledOnce(db, (owner: string) => db.selectFrom('notes').select('id').where('owner', '=', owner).orderBy('id'), 1)
  t.same(await notesOf('ann'), [], 'nothing yet')

  let read: Promise<{ id: string }[]> | undefined
  await t.rejects(db.transaction().execute(async (tx) => {
    await tx.insertInto('notes').values({ id: 'n1', owner: 'ann' }).execute()
    read = notesOf('ann')
    // Give a read that did not wait every chance to finish inside the transaction.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
    throw new Error('rolled back')
  }), /rolled back/)
  t.same(await read, [], 'the read issued inside the open transaction does not see its rolled-back row')

  await db.transaction().execute(async (tx) => {
    await tx.insertInto('notes').values({ id: 'n2', owner: 'ann' }).execute()
    read = notesOf('ann')
  })
  // On SQLite it waited for the connection; on PostgreSQL it ran beside the transaction, before or after its commit.
  if (engine === 'sqlite') t.same(await read, [{ id: 'n2' }], 'issued inside, answered after the commit: the committed row')
  else t.ok([0, 1].includes((await read)!.length))

  await db.insertInto('notes').values(Array.from({ length: 50 }, (_, i) => ({ id: `m${String(i).padStart(2, '0')}`, owner: `o${i % 5}` }))).execute()
  const many = await Promise.all(Array.from({ length: 2000 }, (_, i) => notesOf(`o${i % 5}`)))
  t.ok(many.every((rows, i) => rows.length === 10 && rows.every((row) => Number(row.id.slice(1)) % 5 === i % 5)), '2,000 reads at once each get their own answer')
})
