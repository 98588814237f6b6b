// A host runs its migrations and each plugin's in one migrateToLatest call; their names sort by
// owner ('invoices-001-...', 'signature-010-...'). A database made before the host added its first
// migration (or before a plugin added one sorting before the host's) must still boot: the new
// migration runs, it is not refused as "corrupted migrations".
import t from 'tap'
import { sql, type Kysely, type Migration } from 'kysely'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { forEachEngine } from './engines.ts'

const table = (name: string): Migration => ({
  up: async (db: Kysely<any>) => { await db.schema.createTable(name).addColumn('id', 'integer', (c) => c.primaryKey()).execute() },
})

forEachEngine(t, 'a migration sorting before the ones already run', async (database, _engine, t) => {
  const plugin = { 'plugin-001-things': table('things'), 'plugin-002-more': table('more_things') }
  t.same(await migrateToLatest(database.db, plugin), ['plugin-001-things', 'plugin-002-more'])

  // The host's first migration sorts before the plugin's, which this database ran already.
  const ran = await migrateToLatest(database.db, { 'host-001-invoices': table('invoices'), ...plugin })
  t.same(ran, ['host-001-invoices'], 'only the new one runs')
  t.same((await sql<{ n: number }>`select count(*) as n from invoices`.execute(database.db)).rows.map((r) => Number(r.n)), [0], 'its table exists')
  t.same(await migrateToLatest(database.db, { 'host-001-invoices': table('invoices'), ...plugin }), [], 'and nothing runs twice')
})
