// Counting a big list exactly reads every match. Up to EXACT_COUNT_LIMIT matches the People list
// counts; above it PostgreSQL's total is the planner's estimate, flagged, and the table says
// "about N". SQLite, which keeps no estimates, counts.
import t from 'tap'
import { sql } from 'kysely'
import { EXACT_COUNT_LIMIT } from '../../../core/db/page-total.ts'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { tableModel } from '../../../core/resource/table-model.ts'
import { DatabaseUserRepository } from '../../../host-app/users/database-user-repository.ts'
import { userMigrations } from '../../../host-app/users/migrations/001-users.ts'
import { forEachEngine } from '../../core/db/engines.ts'
import { generateUsers } from './generated-users.ts'

forEachEngine(t, 'totals above the limit', async (database, engine, t) => {
  await migrateToLatest(database.db, userMigrations)
  const repo = new DatabaseUserRepository(database.db)

  await generateUsers(database.db, EXACT_COUNT_LIMIT)
  await sql`analyze`.execute(database.db)
  t.same(await repo.list({ page: 1, perPage: 10 }).then((r) => [r.total, r.estimated]), [EXACT_COUNT_LIMIT, undefined], 'at the limit: counted')

  await sql`delete from users`.execute(database.db)
  await generateUsers(database.db, 30_000)
  await sql`analyze`.execute(database.db)
  const page1 = await repo.list({ page: 1, perPage: 10 })
  t.equal(page1.data.length, 10)
  const staff = await repo.list({ page: 3, perPage: 10, role: 'staff' })
  const few = await repo.list({ page: 1, perPage: 10, search: 'person 2999' })
  // An address's end (host-app/users/email-search.ts): p10@, p20@, ... p30000@.
  const addresses = await repo.list({ page: 1, perPage: 10, search: '0@' })
  t.same([few.total, few.estimated], [11, undefined], 'few matches (Person 2999, 29990..29999): counted, however big the table')
  // 30,000 = 1,071 x 28 + 12.
  const last = await repo.list({ page: 1072, perPage: 28 })
  t.same([last.data.length, last.total, last.estimated], [12, 30_000, undefined], 'the last page (fewer rows than asked for) tells the total exactly')
  const past = await repo.list({ page: 1073, perPage: 28 })
  if (engine === 'postgres') {
    t.equal(page1.estimated, true, 'page 1 of 30,000: estimated')
    t.ok(page1.total > 25_000 && page1.total < 35_000, `near the truth (${page1.total})`)
    t.equal(staff.estimated, true, 'the role filter: estimated')
    t.ok(staff.total > 8_000 && staff.total < 12_000, `near the truth, 10,000 (${staff.total})`)
    t.equal(addresses.estimated, true, 'a search for the end of 3,000 addresses: estimated')
    t.ok(addresses.total > 2_000 && addresses.total < 4_500, `near the truth, 3,000 (${addresses.total})`)
    t.equal(past.estimated, true, 'past the end: no page to count from, estimated')
    t.same(past.data, [])
  } else {
    t.same([page1.total, page1.estimated], [30_000, undefined], 'SQLite counts')
    t.same([staff.total, staff.estimated], [10_000, undefined])
    t.same([addresses.total, addresses.estimated], [3_000, undefined])
    t.same([past.total, past.data], [30_000, []])
  }
})

t.test('the table says an estimate is one', async (t) => {
  const model = (estimated: boolean) => tableModel({
    resource: { slug: 'users', label: 'People', columns: [], actions: { view: { permission: 'users:read' } }, searchFields: [], filters: [], recordActions: [], bulkActions: [], title: () => '' } as never,
    state: { page: 1, perPage: 10, sort: 'name', search: '', filters: {} } as never,
    rows: [{ id: 'a' }], total: 1_234_567, estimated, urls: { list: '/admin/users', record: () => '', confirmDelete: () => '', confirmBulkDelete: '', recordAction: () => '', bulkAction: () => '' },
    actor: { id: 'a', name: 'A', email: 'a@example.com', role: 'admin' }, can: () => true,
  }).pagination
  t.match(model(true), { total: 1_234_567, estimated: true, totalText: 'about 1,200,000', pageCount: 123_457 })
  t.match(model(false), { estimated: false, totalText: '1234567' }, 'a count is printed as it was')
})
