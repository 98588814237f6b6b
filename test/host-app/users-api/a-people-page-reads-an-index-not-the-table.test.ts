// With many users, each order the People screen offers (and the role filter, and a deep page) is
// read from an index and stops after the page: no sort of every matching row, no window count.
// A plan that regresses to either (an index dropped, a count(*) over () put back) fails here.
// On PostgreSQL, a search looks its needle up in a trigram index where pg_trgm can be had, and an
// address (a needle with an '@') in the btree of reversed local parts.
import t from 'tap'
import { sql } from 'kysely'
import type { UserListQuery } from '../../../core/auth/user-repository.ts'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { trigramSchema } from '../../../core/db/trigram-index.ts'
import { DatabaseUserRepository } from '../../../host-app/users/database-user-repository.ts'
import { userMigrations } from '../../../host-app/users/migrations/001-users.ts'
import { forEachEngine } from '../../core/db/engines.ts'
import { statementsOf } from '../../helpers/count-statements.ts'
import { generateUsers } from './generated-users.ts'

const USERS = 30_000

forEachEngine(t, 'People pages read an index', async (database, engine, t) => {
  await migrateToLatest(database.db, userMigrations)
  await generateUsers(database.db, USERS)
  await sql`analyze`.execute(database.db)

  /** The plan of the page's statement; `settings` (PostgreSQL) are set for that plan only. */
  const planOf = async (query: UserListQuery, settings: string[] = []): Promise<string> => {
    const [page] = await statementsOf(database.db, (db) => new DatabaseUserRepository(db).list(query))
    if (engine === 'postgres') {
      const plan = await database.db.transaction().execute(async (trx) => {
        for (const setting of settings) await sql.raw(`set local ${setting}`).execute(trx)
        return (await trx.executeQuery<{ 'QUERY PLAN': unknown }>({ ...page!, sql: `explain (format json) ${page!.sql}` })).rows[0]!['QUERY PLAN']
      })
      return (typeof plan === 'string' ? plan : JSON.stringify(plan)).replace(/\s+/g, '')
    }
    const result = await database.db.executeQuery<{ detail: string }>({ ...page!, sql: `explain query plan ${page!.sql}` })
    return result.rows.map((row) => row.detail).join('\n')
  }

  const cases: Array<[string, UserListQuery]> = [
    ['page 1 by name', { page: 1, perPage: 10 }],
    ['page 1 by name, descending', { page: 1, perPage: 10, sort: { field: 'name', direction: 'desc' } }],
    ['by e-mail', { page: 1, perPage: 10, sort: { field: 'email', direction: 'asc' } }],
    ['by role', { page: 1, perPage: 10, sort: { field: 'role', direction: 'desc' } }],
    ['the role filter', { page: 1, perPage: 10, role: 'staff' }],
    ['the role filter by e-mail', { page: 1, perPage: 10, role: 'staff', sort: { field: 'email', direction: 'desc' } }],
    ['the role filter sorted by role', { page: 1, perPage: 10, role: 'staff', sort: { field: 'role', direction: 'asc' } }],
    ['a deep page', { page: 200, perPage: 25 }],
  ]
  for (const [name, query] of cases) {
    const plan = await planOf(query)
    if (engine === 'postgres') {
      t.match(plan, /"NodeType":"Index(Only)?Scan"/, `${name}: an index scan`)
      t.notMatch(plan, /"NodeType":"(Sort|IncrementalSort|WindowAgg)"/, `${name}: no sort of the matching rows, no window count`)
    } else {
      t.match(plan, /USING INDEX/, `${name}: an index`)
      t.notMatch(plan, /TEMP B-TREE/, `${name}: no sort of the matching rows`)
    }
  }

  if (engine === 'postgres' && await trigramSchema(database.db)) {
    // At this size a scan still costs less than the trigram lookup (at a million it no longer
    // does, see bench/sections/people-scale.ts): what is checked is that the search, as sent, can
    // use them, which a LIKE the index cannot serve (another expression, an ESCAPE) would not.
    const plan = await planOf({ page: 1, perPage: 10, search: 'p12345' }, ['enable_seqscan = off', 'enable_indexscan = off'])
    t.match(plan, /users_name_trigrams/, 'a search can read the trigram index of names')
    t.match(plan, /users_email_trigrams/, 'and of e-mails')
  }

  if (engine === 'postgres') {
    // A needle with an '@' (an address, or its start) is looked up by the end of the local part,
    // not by trigrams every address shares (host-app/users/email-search.ts).
    const plan = await planOf({ page: 1, perPage: 10, search: 'p12345@example' }, ['enable_seqscan = off', 'enable_indexscan = off'])
    t.match(plan, /users_by_reversed_local_part/, 'a search for an address reads the index of reversed local parts')
    t.match(plan, /users_with_several_ats/, 'and the few addresses with several @')
    t.notMatch(plan, /users_email_trigrams/, 'not the trigram index of e-mails')
  }
})
