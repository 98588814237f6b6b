import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely'

/**
 * Runs every pending migration, in name order, for whichever engine `db` uses. Plugins hand in
 * their own migrations (a name -> migration map); names carry a numeric prefix to fix the order.
 */
export async function migrateToLatest<DB>(db: Kysely<DB>, migrations: Record<string, Migration>): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations }
  const migrator = new Migrator({ db: db as Kysely<unknown>, provider })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${(error as Error).message ?? String(error)}`, { cause: error })
  }
  return (results ?? []).map((r) => r.migrationName)
}
