import t from 'tap'
import { migrateToLatest } from '../../../../core/db/migrate.ts'
import { signatureMigrations } from '../../../../plugins/signature/database/migrations/index.ts'
import { forEachEngine } from '../../../core/db/engines.ts'

forEachEngine(t, 'migrations run at every boot: the first run applies them, the second finds nothing to do', async (database, _engine, st) => {
  st.same(await migrateToLatest(database.db, signatureMigrations), Object.keys(signatureMigrations))
  st.same(await migrateToLatest(database.db, signatureMigrations), [])
  const tables = (await database.db.introspection.getTables()).map((table) => table.name)
  st.ok(tables.includes('digital_pdf_template_slots'), 'the slots table exists')
})
