import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely'

/**
 * What a search for an e-mail address (a needle with one '@') reads on PostgreSQL instead of the
 * e-mail trigram index (../email-search.ts): the local part reversed, in code point order, for the
 * local part's end; and the few addresses with several '@', which that split cannot serve. The
 * expressions are the ones the search writes, word for word. SQLite has no reverse() and keeps
 * its LIKE (a scan there, as before).
 */
export const usersEmailSearchIndexes: Migration = {
  async up(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return
    await sql`create index users_by_reversed_local_part on users ((reverse(split_part(lower(email), '@', 1)) collate "C"))`.execute(db)
    await sql`create index users_with_several_ats on users (id) where lower(email) like '%@%@%'`.execute(db)
  },
  async down(db: Kysely<unknown>) {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return
    await sql`drop index users_by_reversed_local_part`.execute(db)
    await sql`drop index users_with_several_ats`.execute(db)
  },
}
