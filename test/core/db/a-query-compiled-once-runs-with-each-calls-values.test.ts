// compiledOnce() builds and compiles a query once and runs it with each call's values. Each value
// must go where the builder put the argument, constants must stay, and a builder that uses an
// argument for anything but one parameter is refused when it is compiled, not answered wrongly.
import t from 'tap'
import { sql } from 'kysely'
import { compiledOnce } from '../../../core/db/compiled-once.ts'
import { forEachEngine } from './engines.ts'

forEachEngine(t, 'a query compiled once runs with each call\'s values', async (database, _engine, t) => {
  const db = database.db
  await db.schema.createTable('people').addColumn('id', 'varchar(20)', (c) => c.primaryKey()).addColumn('team', 'varchar(20)').addColumn('status', 'varchar(20)').execute()
  await db.insertInto('people').values([
    { id: 'a', team: 'red', status: 'active' }, { id: 'b', team: 'red', status: 'gone' },
    { id: 'c', team: 'blue', status: 'active' }, { id: 'd', team: 'blue', status: 'active' },
  ]).execute()
  // Arguments in reverse order of their parameters, with a constant between them.
  const activeOf = compiledOnce(db, (team: string, after: string) => db.selectFrom('people').select('id')
    .where('id', '>', after).where('status', '=', 'active').where('team', '=', team).orderBy('id'), 2)
  t.same(await activeOf('red', ''), [{ id: 'a' }])
  t.same(await activeOf('blue', ''), [{ id: 'c' }, { id: 'd' }], 'another call, other values')
  t.same(await activeOf('blue', 'c'), [{ id: 'd' }])
  t.same(await activeOf('green', ''), [])
  // A value that looks like SQL is a value.
  t.same(await activeOf("red' or '1'='1", ''), [])

  t.throws(() => compiledOnce(db, (id: string) => db.selectFrom('people').select('id').where('id', '=', id).where('team', '=', id), 1),
    /argument 0 is not exactly one parameter/, 'an argument used twice is refused')
  t.throws(() => compiledOnce(db, (column: string) => db.selectFrom('people').select(sql.ref(column).as('x')), 1),
    /argument 0 is not exactly one parameter/, 'an argument used as an identifier is refused')
})
