import { PostgresAdapter, sql, type Kysely } from 'kysely'
import { quoteIdentifier } from './database.ts'

/**
 * The schema pg_trgm is installed in, installing it if this role may (it is a trusted extension
 * since PostgreSQL 13: a database owner may). Null where it is not available: on SQLite, when the
 * server lacks the extension or the role may not create it. `LIKE '%x%'` then scans, correctly.
 *
 * Inside a migration's transaction a failed CREATE EXTENSION would abort the transaction, so it
 * runs under a savepoint. The extension lives in one schema per database; its operator classes are
 * named with that schema, so an index created from any schema finds them.
 */
export async function trigramSchema(db: Kysely<any>): Promise<string | null> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return null
  const installedIn = async () => (await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)).rows[0]?.schema ?? null
  const found = await installedIn()
  if (found) return found
  const available = (await sql`select 1 from pg_available_extensions where name = 'pg_trgm'`.execute(db)).rows.length > 0
  if (!available) return null
  // public, not the current schema: a test's schema is dropped with cascade, which would drop the
  // extension (and every other schema's trigram index) with it.
  const inTransaction = db.isTransaction
  if (inTransaction) await sql`savepoint trigram_extension`.execute(db)
  try {
    await sql`create extension if not exists pg_trgm schema public`.execute(db)
    if (inTransaction) await sql`release savepoint trigram_extension`.execute(db)
  } catch {
    // Not permitted, or another instance created it at the same moment: either way, look again.
    if (inTransaction) await sql`rollback to savepoint trigram_extension`.execute(db)
  }
  return installedIn()
}

/** A GIN trigram index on lower(column), or nothing where pg_trgm is not available. */
export async function createTrigramIndex(db: Kysely<any>, name: string, table: string, column: string): Promise<boolean> {
  const schema = await trigramSchema(db)
  if (!schema) return false
  await sql`create index if not exists ${sql.raw(quoteIdentifier(name))} on ${sql.table(table)} using gin (lower(${sql.ref(column)}) ${sql.raw(quoteIdentifier(schema))}.gin_trgm_ops)`.execute(db)
  return true
}
