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
  let { error, results } = await migrator.migrateToLatest()
  // Kysely's introspection reads the catalog of every schema; a neighbour's schema dropped during
  // that query fails it with 3F000 naming the neighbour. Nothing of ours ran (migrations run in
  // one transaction under a lock), so trying again is safe.
  for (let attempt = 1; error && attempt <= 5 && isNeighbourSchemaGone(error, migrationTableSchema); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 50 * attempt))
    ;({ error, results } = await migrator.migrateToLatest())
  }
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${(error as Error).message ?? String(error)}`, { cause: error })
  }
  return (results ?? []).map((r) => r.migrationName)
}

function isNeighbourSchemaGone(error: unknown, ours: string | undefined): boolean {
  const e = error as { code?: string; message?: string }
  return e?.code === '3F000' && typeof e.message === 'string' && !(ours !== undefined && e.message.includes(`"${ours}"`))
}
