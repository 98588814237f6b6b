import t from 'tap'
import { migrateToLatest } from '../../../../core/db/migrate.ts'
import { signatureMigrations } from '../../../../plugins/signature/database/migrations/index.ts'
import { forEachEngine } from '../../../core/db/engines.ts'

forEachEngine(t, 'migrations run at every boot: the first run applies them, the second finds nothing to do', async (database, _engine, st) => {
  st.same(await migrateToLatest(database.db, signatureMigrations), Object.keys(signatureMigrations))
  st.same(await migrateToLatest(database.db, signatureMigrations), [])
  // Read from the table rather than through Kysely's introspection, which lists every schema of the
  // database and failed when a neighbouring test dropped its schema meanwhile (CI).
  st.same(await (database.db as any).selectFrom('digital_pdf_template_slots').selectAll().limit(1).execute(), [], 'the slots table exists, empty')
})
