import t, { type Test } from 'tap'
import type { UserRecord, UserRepository } from '../../../core/auth/user-repository.ts'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { DatabaseUserRepository } from '../../../host-app/users/database-user-repository.ts'
import { MemoryUserRepository } from '../../../host-app/users/memory-user-repository.ts'
import { userMigrations } from '../../../host-app/users/migrations/001-users.ts'
import { forEachEngine } from '../../core/db/engines.ts'

const seed: UserRecord[] = [
  { id: 'a', name: 'Ada Admin', email: 'ada@example.com', role: 'admin', passwordHash: 'h', sessionVersion: 0 },
  { id: 'b', name: 'bob 100%_real', email: 'bob@example.com', role: 'staff', passwordHash: 'h', sessionVersion: 0 },
  { id: 'c', name: 'Cleo', email: 'cleo@example.com', role: 'manager', passwordHash: 'h', sessionVersion: 0 },
]

// One contract, every store: a host that plugs in its own store can run the same checks.
async function contract(t: Test, repo: UserRepository) {
  t.equal((await repo.findByEmail(' ADA@Example.com '))?.id, 'a', 'e-mail lookup ignores case and spaces')
  t.equal(await repo.findById('nope'), null)

  const page = await repo.list({ page: 1, perPage: 2, sort: { field: 'name', direction: 'asc' } })
  t.same(page.data.map((u) => u.id), ['a', 'b'], 'sorted by name, case-insensitively')
  t.equal(page.total, 3)
  t.same((await repo.list({ page: 2, perPage: 2, sort: { field: 'name', direction: 'asc' } })).data.map((u) => u.id), ['c'])
  t.same(await repo.list({ page: 5, perPage: 2 }), { data: [], total: 3 }, 'a page past the end: no rows, the true total')
  t.same(await repo.list({ page: 1, perPage: 2, search: 'nobody' }), { data: [], total: 0 })
  t.same((await repo.list({ page: 1, perPage: 10, sort: { field: 'name', direction: 'desc' } })).data.map((u) => u.id), ['c', 'b', 'a'])
  t.same((await repo.list({ page: 1, perPage: 10, search: 'CLEO' })).data.map((u) => u.id), ['c'])
  t.same((await repo.list({ page: 1, perPage: 10, search: '%_' })).data.map((u) => u.id), ['b'], '% and _ are literal characters')
  t.same((await repo.list({ page: 1, perPage: 10, search: '_' })).data.map((u) => u.id), ['b'])
  const ids = async (search: string, searchFields?: Array<'name' | 'email'>) => (await repo.list({ page: 1, perPage: 10, search, searchFields })).data.map((u) => u.id)
  t.same(await ids('admin', ['email']), [], 'searchFields [email]: a word only in a name does not match')
  t.same(await ids('admin', ['name']), ['a'])
  t.same(await ids('admin', ['name', 'email']), ['a'])
  t.same(await ids('EXAMPLE', ['name']), [], 'searchFields [name]: a word only in e-mails does not match')
  t.same(await ids('EXAMPLE', ['email', 'name']), ['a', 'b', 'c'])
  t.same(await ids('example'), ['a', 'b', 'c'], 'no searchFields: name and e-mail')
  t.same(await ids('example', []), [], 'no field to search: no match')
  t.equal((await repo.list({ page: 1, perPage: 1, search: 'example', searchFields: ['name'] })).total, 0, 'the count follows the fields too')

  const created = await repo.create({ name: 'Dan', email: 'Dan@Example.com', role: 'staff', passwordHash: 'h' })
  t.equal(created.sessionVersion, 0)
  t.equal((await repo.findByEmail('dan@example.com'))?.id, created.id)
  await t.rejects(repo.create({ name: 'Dan 2', email: 'DAN@example.com', role: 'staff', passwordHash: 'h' }), { code: 'ERR_CONFLICT' })
  await t.rejects(repo.update(created.id, { email: 'ADA@example.com' }), { code: 'ERR_CONFLICT' })

  const renamed = await repo.update(created.id, { name: 'Daniel' })
  t.match(renamed, { name: 'Daniel', sessionVersion: 0 })
  t.equal((await repo.update(created.id, { role: 'manager' }, { revokeSessions: true }))?.sessionVersion, 1)
  await repo.revokeSessions(created.id)
  t.equal((await repo.findById(created.id))?.sessionVersion, 2)
  t.equal(await repo.update('nope', { name: 'x' }), null)
  t.equal(await repo.update(created.id, { name: 'Stale' }, { expectedRole: 'staff', revokeSessions: true }), null, 'compare-and-set: the role moved on, nothing is written')
  t.match(await repo.findById(created.id), { name: 'Daniel', sessionVersion: 2 })
  t.match(await repo.update(created.id, { name: 'Dan' }, { expectedRole: 'manager' }), { name: 'Dan' }, 'the expected role writes')
  t.equal(await repo.delete(created.id, { expectedRole: 'admin' }), false, 'a delete against a stale role removes nothing')
  t.ok(await repo.findById(created.id))

  t.equal(await repo.delete(created.id), true)
  t.equal(await repo.delete(created.id), false)
  t.equal(await repo.findByEmail('dan@example.com'), null)
  t.equal((await repo.list({ page: 1, perPage: 10 })).total, 3)
}

t.test('memory store', async (t) => contract(t, new MemoryUserRepository(seed)))

forEachEngine(t, 'database store', async (database, _engine, t) => {
  await migrateToLatest(database.db, userMigrations)
  const repo = new DatabaseUserRepository(database.db)
  await Promise.all([repo.seed(seed), repo.seed(seed)])
  t.equal((await repo.list({ page: 1, perPage: 10 })).total, 3, 'two concurrent first boots seed each user once')
  await contract(t, repo)
})
