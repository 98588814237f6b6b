import { sql, type Kysely, type Migration } from 'kysely'
import { createTrigramIndex } from '../../../core/index.ts'

/**
 * One index per order the People screen offers, each ending in id (the tie-break that keeps pages
 * stable), so a page is read from an index and stops after perPage rows: with 1,000,000 users the
 * name-only index left `ORDER BY lower(name)` sorting the whole table (~1 s a page). With a role
 * filter the role comes first (the order within one role is by name or e-mail). Both engines take
 * expression indexes. Searches (`lower(x) LIKE '%needle%'`) get trigram indexes on PostgreSQL
 * where pg_trgm can be had.
 */
export const usersListIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    const indexes: Record<string, string> = {
      users_by_name: 'lower(name), id',
      users_by_email: 'lower(email), id',
      users_by_role: 'lower(role), lower(name), id',
      users_of_role_by_name: 'role, lower(name), id',
      users_of_role_by_email: 'role, lower(email), id',
    }
    for (const [name, columns] of Object.entries(indexes)) await sql`create index ${sql.raw(name)} on users (${sql.raw(columns)})`.execute(db)
    // Its order is users_by_name's, which also breaks ties.
    await sql`drop index users_name`.execute(db)
    await createTrigramIndex(db, 'users_name_trigrams', 'users', 'name')
    await createTrigramIndex(db, 'users_email_trigrams', 'users', 'email')
  },
  async down(db: Kysely<unknown>) {
    for (const name of ['users_by_name', 'users_by_email', 'users_by_role', 'users_of_role_by_name', 'users_of_role_by_email']) await sql`drop index ${sql.raw(name)}`.execute(db)
    await sql`drop index if exists users_name_trigrams`.execute(db)
    await sql`drop index if exists users_email_trigrams`.execute(db)
    await sql`create index users_name on users (name)`.execute(db)
  },
}
