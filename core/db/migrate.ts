import { Migrator, PostgresAdapter, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely'

/**
 * Runs every pending migration, in name order, for whichever engine `db` uses. Plugins hand in
 * their own migrations (a name -> migration map); names carry a numeric prefix to fix the order.
 */
export async function migrateToLatest<DB>(db: Kysely<DB>, migrations: Record<string, Migration>): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations }
  // Kysely looks for its migration tables in every schema it can see: with another app's (or
  // test's) tables in a neighbouring schema it would think this one is migrated. Pin them to the
  // schema this connection works in.
  let migrationTableSchema: string | undefined
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
    migrationTableSchema = rows[0]?.schema
  }
  const migrator = new Migrator({ db: db as Kysely<unknown>, provider, ...(migrationTableSchema ? { migrationTableSchema } : {}) })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${(error as Error).message ?? String(error)}`, { cause: error })
  }
  return (results ?? []).map((r) => r.migrationName)
}
