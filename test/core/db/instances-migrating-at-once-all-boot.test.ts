// Instances booting at once against one PostgreSQL database each run every migration while other
// apps (here: other schemas) create and drop their tables. Each must boot. Found in CI: an
// instance died in Kysely's catalog introspection ("column "ok" of relation
// "signature_outbox_attempts" does not exist") because that introspection read every schema of
// the database, and a neighbouring test's schema was being dropped under it.
import { randomBytes } from 'node:crypto'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import t from 'tap'
import { quoteIdentifier } from '../../../core/db/database.ts'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { userMigrations } from '../../../host-app/users/migrations/001-users.ts'
import { signatureMigrations } from '../../../plugins/signature/index.ts'
import { postgresUnreachable, TEST_DATABASE_URL } from './engines.ts'

const migrations = { ...userMigrations, ...signatureMigrations }
const INSTANCES = 3
const NEIGHBOURS = 6
const ROUNDS = 3
// Three rounds of six instances and six neighbours took 110 s of the default 120 with two test
// files at once on a busy machine (and timed out under more load): the work is bounded, the time not.
t.setTimeout(360_000)

t.test('instances migrating at once all boot while neighbouring schemas are created and dropped', async (t: any) => {
  const reason = await postgresUnreachable()
  if (reason) return t.skip(reason)
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  t.teardown(() => admin.end())
  const newSchema = async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`
    await admin.query(`create schema ${quoteIdentifier(schema)}`)
    return schema
  }

  for (let round = 1; round <= ROUNDS; round++) {
    // Neighbours with the same tables, migrated beforehand, dropped while the instances boot.
    const neighbours = await Promise.all(Array.from({ length: NEIGHBOURS }, newSchema))
    await Promise.all(neighbours.map(async (schema) => {
      const db = openInstance(schema)
      try { await migrateToLatest(db, migrations) } finally { await db.destroy() }
    }))
    const schemas = [await newSchema(), await newSchema()]
    const instances = schemas.flatMap((schema) => Array.from({ length: INSTANCES }, () => ({ schema, db: openInstance(schema) })))
    const dropper = new pg.Client({ connectionString: TEST_DATABASE_URL })
    await dropper.connect()
    try {
      const [outcomes] = await Promise.all([
        Promise.allSettled(instances.map(({ db }) => migrateToLatest(db, migrations))),
        (async () => { for (const schema of neighbours) await dropper.query(`drop schema ${quoteIdentifier(schema)} cascade`) })(),
      ])
      const failures = outcomes.flatMap((o) => (o.status === 'rejected' ? [(o.reason as Error).message.slice(0, 200)] : []))
      t.same(failures, [], `round ${round}: every instance boots`)
      for (const schema of schemas) {
        const applied = outcomes.flatMap((o, i) => (instances[i]!.schema === schema && o.status === 'fulfilled' ? o.value : []))
        t.same(applied.sort(), Object.keys(migrations).sort(), `round ${round}: each migration of ${schema} ran exactly once`)
      }
    } finally {
      await dropper.end()
      await Promise.all(instances.map(({ db }) => db.destroy()))
      for (const schema of schemas) await admin.query(`drop schema ${quoteIdentifier(schema)} cascade`)
    }
  }
})

// As the app's own pool does, plus planner settings that make PostgreSQL read its catalog with
// parallel workers, as it does by itself once the catalog has grown (a CI run creates and drops
// thousands of schemas): the failure in CI came from a parallel worker.
function openInstance(schema: string): Kysely<any> {
  const options = `-c search_path=${quoteIdentifier(schema)} -c parallel_setup_cost=0 -c parallel_tuple_cost=0 -c min_parallel_table_scan_size=0 -c min_parallel_index_scan_size=0`
  return new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 10, options }) }) })
}
