import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely'

/**
 * PostgreSQL answers from an expression index alone (an index-only scan) only when the index also
 * holds the columns the expressions read: `lower(name)` needs `name`. Without them a deep page's
 * keys (core/db/page-of-rows.ts) still read every skipped row from the table. SQLite matches the
 * stored expression itself and needs nothing more.
 */
const covering: Record<string, { columns: string; include: string }> = {
  users_by_name: { columns: 'lower(name), id', include: 'name' },
  users_by_email: { columns: 'lower(email), id', include: 'email' },
  users_by_role: { columns: 'lower(role), lower(name), id', include: 'role, name' },
  users_of_role_by_name: { columns: 'role, lower(name), id', include: 'name' },
  users_of_role_by_email: { columns: 'role, lower(email), id', include: 'email' },
}

async function rebuild(db: Kysely<unknown>, include: boolean) {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return
  for (const [name, index] of Object.entries(covering)) {
    // Built beside the old one, which serves until the swap.
    await sql`create index ${sql.raw(`${name}_next`)} on users (${sql.raw(index.columns)})${sql.raw(include ? ` include (${index.include})` : '')}`.execute(db)
    await sql`drop index ${sql.raw(name)}`.execute(db)
    await sql`alter index ${sql.raw(`${name}_next`)} rename to ${sql.raw(name)}`.execute(db)
  }
}

export const usersListIndexesCoverTheirColumns: Migration = {
  up: (db: Kysely<unknown>) => rebuild(db, true),
  down: (db: Kysely<unknown>) => rebuild(db, false),
}
