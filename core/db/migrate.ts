import { Migrator, PostgresAdapter, sql, type DatabaseIntrospector, type Kysely, type Migration, type MigrationProvider } from 'kysely'
import { WITH_TIMEOUTS, WITHOUT_TIMEOUTS } from './postgres-pool-guard.ts'

/**
 * Runs every pending migration, in name order, for whichever engine `db` uses. Plugins hand in
 * their own migrations (a name -> migration map); names carry the owner and a numeric prefix to
 * fix the order within the owner. A pending migration may sort before ones already run (a host's
 * first 'invoices-001' on a database that ran 'signature-010'): it runs, as Kysely's
 * allowUnorderedMigrations does, instead of refusing the database as corrupted.
 */
export async function migrateToLatest<DB>(db: Kysely<DB>, migrations: Record<string, Migration>): Promise<string[]> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return migrateOn(db, migrations)
  // On one connection without the request timeouts: an instance waits behind the migration lock
  // for as long as another instance's migrations take, and a migration may build a large index.
  return db.connection().execute(async (connection) => {
    await sql.raw(WITHOUT_TIMEOUTS).execute(connection)
    try {
      return await migrateOn(connection, migrations)
    } finally {
      await sql.raw(WITH_TIMEOUTS).execute(connection).catch(() => {})
    }
  })
}

async function migrateOn<DB>(db: Kysely<DB>, migrations: Record<string, Migration>): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations }
  let migrator: Migrator
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
    const schema = rows[0]!.schema
    // Kysely looks for its migration tables with an introspection of every schema of the
    // database, column by column. Another app's schema changing meanwhile fails that query with
    // errors naming the neighbour's tables (seen in CI, test/core/db/instances-migrating-at-once-
    // all-boot.test.ts), and a neighbour's migration tables could pass for ours. Both go away
    // when the migrator sees only the schema this connection works in.
    migrator = new Migrator({ db: seeingOnly(db as Kysely<unknown>, schema), provider, migrationTableSchema: schema, allowUnorderedMigrations: true })
  } else {
    migrator = new Migrator({ db: db as Kysely<unknown>, provider, allowUnorderedMigrations: true })
  }
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${(error as Error).message ?? String(error)}`, { cause: error })
  }
  return (results ?? []).map((r) => r.migrationName)
}

/** `db` whose introspection lists one schema and its tables (names only: all the migrator reads). */
function seeingOnly(db: Kysely<unknown>, schema: string): Kysely<unknown> {
  const introspection: DatabaseIntrospector = {
    getSchemas: async () => [{ name: schema }],
    getTables: async () => {
      const { rows } = await sql<{ name: string; kind: string }>`
        select c.relname as name, c.relkind as kind from pg_catalog.pg_class c
        join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v', 'm')`.execute(db)
      return rows.map((row) => ({ name: row.name, schema, isView: row.kind === 'v' || row.kind === 'm', columns: [] }))
    },
    getMetadata: async () => ({ tables: await introspection.getTables() }),
  }
  // Kysely keeps its state in private fields: every other member is the original's, bound to it.
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
