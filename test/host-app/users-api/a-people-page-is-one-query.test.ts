// A page of the People list and its total come from one query (a window count); only a page past
// the end asks for the count on its own. On PostgreSQL each query is a round trip costing CPU on
// both sides, and the list was two per page.
import t from 'tap'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { DatabaseUserRepository } from '../../../host-app/users/database-user-repository.ts'
import { userMigrations } from '../../../host-app/users/migrations/001-users.ts'
import { forEachEngine } from '../../core/db/engines.ts'
import { countStatements } from '../../helpers/count-statements.ts'

forEachEngine(t, 'queries per list page', async (database, _engine, t) => {
  await migrateToLatest(database.db, userMigrations)
  const counter = countStatements(database.db)
  const repo = new DatabaseUserRepository(counter.db)
  await repo.seed(Array.from({ length: 25 }, (_, i) => ({ id: `u${i}`, name: `Person ${i}`, email: `p${i}@example.com`, role: i % 3 ? 'staff' : 'manager', passwordHash: 'h', sessionVersion: 0 })))
  const count = async (run: () => Promise<unknown>) => { counter.n = 0; const result = await run(); return { queries: counter.n, result } }

  const first = await count(() => repo.list({ page: 1, perPage: 10 }))
  t.equal(first.queries, 1, 'page 1: one query')
  t.equal((first.result as { total: number }).total, 25)
  const filtered = await count(() => repo.list({ page: 2, perPage: 5, search: 'person 1', role: 'staff' }))
  t.equal(filtered.queries, 1, 'a filtered, searched page 2: one query')
  t.equal((filtered.result as { total: number }).total, 8, 'its total counts every match (Person 1, 10, 11, 13, 14, 16, 17, 19), not the page')
  const past = await count(() => repo.list({ page: 9, perPage: 10 }))
  t.equal(past.queries, 2, 'past the end: the count is asked on its own')
  t.same(past.result, { data: [], total: 25 })
})
