// A deep page (page 1,000 of a million users) read whole rows for every row it skipped: OFFSET
// fetched each skipped user from the table, so its cost grew with the page number (6.6x page 1 at a
// million on PostgreSQL). The page's ids are now found in an index alone and only its own rows are
// read: on PostgreSQL the deep page's plan takes no more rows from the table than page 1's does
// (the bounded count both carry included); on SQLite every use of a non-covering index of users
// is a lookup by id.
import t from 'tap'
import { sql } from 'kysely'
import type { UserListQuery } from '../../../core/auth/user-repository.ts'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { DatabaseUserRepository } from '../../../host-app/users/database-user-repository.ts'
import { userMigrations } from '../../../host-app/users/migrations/001-users.ts'
import { forEachEngine } from '../../core/db/engines.ts'
import { statementsOf } from '../../helpers/count-statements.ts'
import { generateUsers } from './generated-users.ts'

const USERS = 30_000

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; 'Index Name'?: string; 'Actual Rows': number; 'Actual Loops': number; 'Heap Fetches'?: number; Plans?: PlanNode[] }

/** Rows each node took from the users table itself (not from an index alone), summed over the plan. */
function tableRowsRead(node: PlanNode): number {
  let rows = 0
  if (node['Relation Name'] === 'users') {
    if (node['Node Type'] === 'Index Only Scan') rows += node['Heap Fetches'] ?? 0
    else rows += node['Actual Rows'] * node['Actual Loops']
  }
  for (const child of node.Plans ?? []) rows += tableRowsRead(child)
  return rows
}

forEachEngine(t, 'a deep People page reads whole rows only for its page', async (database, engine, t) => {
  await migrateToLatest(database.db, userMigrations)
  await generateUsers(database.db, USERS)
  // The visibility map an index-only scan needs; autovacuum keeps it in a deployment.
  await sql`${sql.raw(engine === 'postgres' ? 'vacuum analyze users' : 'analyze')}`.execute(database.db)

  const repository = new DatabaseUserRepository(database.db)
  const cases: Array<[string, UserListQuery]> = [
    ['by name', { page: 1000, perPage: 10 }],
    ['by name, descending', { page: 1000, perPage: 10, sort: { field: 'name', direction: 'desc' } }],
    ['by e-mail', { page: 1000, perPage: 10, sort: { field: 'email', direction: 'asc' } }],
    ['by role', { page: 1000, perPage: 10, sort: { field: 'role', direction: 'asc' } }],
    ['the role filter', { page: 500, perPage: 10, role: 'staff' }],
    ['the role filter by e-mail', { page: 500, perPage: 10, role: 'staff', sort: { field: 'email', direction: 'desc' } }],
  ]
  const pageStatement = async (query: UserListQuery) => (await statementsOf(database.db, (db) => new DatabaseUserRepository(db).list(query)))[0]!
  const rowsReadBy = async (query: UserListQuery) => {
    const page = await pageStatement(query)
    const result = await database.db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>({ ...page, sql: `explain (analyze, format json) ${page.sql}` })
    return tableRowsRead(result.rows[0]!['QUERY PLAN'][0]!.Plan)
  }
  for (const [name, query] of cases) {
    if (engine === 'postgres') {
      const first = await rowsReadBy({ ...query, page: 1 })
      const deep = await rowsReadBy(query)
      t.ok(deep <= first + query.perPage, `${name}: page ${query.page} takes ${deep} rows from the table, page 1 ${first}`)
    } else {
      const page = await pageStatement(query)
      const result = await database.db.executeQuery<{ detail: string }>({ ...page, sql: `explain query plan ${page.sql}` })
      const plan = result.rows.map((row) => row.detail)
      t.same(plan.filter((line) => /users USING INDEX/.test(line) && !/\(id=\?\)/.test(line)), [], `${name}: no row of users read but the page's\n${plan.join('\n')}`)
    }
    // And the rows are those of the same page read the plain way: the order, ties by id, kept.
    const listed = await repository.list(query)
    const offset = (query.page - 1) * query.perPage
    const field = query.sort?.field ?? 'name'
    const direction = query.sort?.direction ?? 'asc'
    let plain = database.db.selectFrom('users').select('id')
    if (query.role) plain = plain.where('role', '=', query.role)
    if (!(field === 'role' && query.role !== undefined)) plain = plain.orderBy(sql`lower(${sql.ref(field)})`, direction)
    if (field === 'role') plain = plain.orderBy(sql`lower(name)`, direction)
    const expected = await plain.orderBy('id', direction).limit(query.perPage).offset(offset).execute()
    t.same(listed.data.map((user) => user.id), expected.map((row: { id: string }) => row.id), `${name}: the same rows in the same order`)
  }
})
