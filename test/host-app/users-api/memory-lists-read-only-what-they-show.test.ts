// The in-memory store with many users: the role filter reads that role's own index, a search
// asked again with few matches reads only its matches, and the first search for a needle, the one
// that must test everyone, lets the event loop run between slices instead of holding it throughout.
import t from 'tap'
import type { UserRecord } from '../../../core/auth/user-repository.ts'
import { MemoryUserRepository } from '../../../host-app/users/memory-user-repository.ts'

const USERS = 50_000
const users: UserRecord[] = Array.from({ length: USERS }, (_, i) => ({
  id: `u${i}`, name: `Person ${(i * 7919) % USERS}`, email: `p${i}@example.com`, role: ['admin', 'manager', 'staff'][i % 3]!, passwordHash: 'h', sessionVersion: 0,
}))

t.test('the role filter reads one page of its role', async (t) => {
  const repo = new MemoryUserRepository(users)
  await repo.list({ page: 1, perPage: 10, role: 'staff' })
  const before = repo.examined
  const page = await repo.list({ page: 50, perPage: 10, role: 'staff', sort: { field: 'email', direction: 'desc' } })
  await repo.list({ page: 50, perPage: 10, role: 'staff', sort: { field: 'email', direction: 'desc' } })
  t.equal(page.total, 16_666)
  t.ok(page.data.every((u) => u.role === 'staff'))
  t.equal(repo.examined - before, 20, 'two pages of 10: 20 users looked at, none of another role')
  // Kept in order through writes.
  const moved = await repo.update('u2', { role: 'admin', name: 'Aaron' })
  t.equal(moved?.role, 'admin')
  t.equal((await repo.list({ page: 1, perPage: 10, role: 'staff' })).total, 16_665)
  t.same((await repo.list({ page: 1, perPage: 1, role: 'admin' })).data.map((u) => u.name), ['Aaron'])
})

t.test('a search with few matches, asked again, reads only its matches', async (t) => {
  const repo = new MemoryUserRepository(users)
  const first = await repo.list({ page: 1, perPage: 10, search: 'person 4242' })
  t.same(first.data.map((u) => u.name).sort(), ['Person 4242', 'Person 42420', 'Person 42421', 'Person 42422', 'Person 42423', 'Person 42424', 'Person 42425', 'Person 42426', 'Person 42427', 'Person 42428'])
  t.equal(first.total, 11)
  const before = repo.examined
  const again = await repo.list({ page: 2, perPage: 10, search: 'Person 4242', sort: { field: 'name', direction: 'desc' } })
  t.same(again.data.map((u) => u.name), ['Person 4242'], 'page 2 in descending name order')
  t.equal(repo.examined - before, 11, 'its 11 matches and nobody else')
  // A new match and a gone one are seen without a new scan.
  await repo.create({ name: 'Person 4242 Jr', email: 'jr@example.com', role: 'staff', passwordHash: 'h' })
  await repo.delete(users.find((u) => u.name === 'Person 42420')!.id)
  const after = repo.examined
  const third = await repo.list({ page: 1, perPage: 20, search: 'person 4242' })
  t.equal(third.total, 11)
  t.ok(third.data.some((u) => u.name === 'Person 4242 Jr') && !third.data.some((u) => u.name === 'Person 42420'))
  t.equal(repo.examined - after, 11)
})

t.test('the first search lets the event loop run', async (t) => {
  const repo = new MemoryUserRepository(users)
  await repo.list({ page: 1, perPage: 10 })
  let settled = false
  const search = repo.list({ page: 1, perPage: 10, search: 'nobody by this name' }).then((result) => { settled = true; return result })
  // Queued after the search's first slice: it runs while the search is still going.
  const ranDuring = await new Promise<boolean>((resolve) => setImmediate(() => resolve(!settled)))
  t.ok(ranDuring, 'another callback ran before the search finished')
  t.same(await search, { data: [], total: 0 })

  // A write during a scan: the answer is the index as it was; its count is not kept as true.
  const scan = repo.list({ page: 1, perPage: 10, search: 'zed' })
  await repo.create({ name: 'Zed', email: 'zed@example.com', role: 'staff', passwordHash: 'h' })
  t.equal((await scan).total, 0)
  t.equal((await repo.list({ page: 1, perPage: 10, search: 'zed' })).total, 1, 'asked again: counted afresh, the new user included')
})
