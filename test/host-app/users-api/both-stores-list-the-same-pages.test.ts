// The People list is the same whichever store keeps the users: the same rows on the same page and
// the same total for every sort, direction, role filter, search and page, including past the end.
// Names are letters, spaces and single digits (e-mails zero-padded numbers), which the memory store's collator and the
// database's lower() order alike (accents and multi-digit numbers they do not).
import t from 'tap'
import type { UserListQuery, UserRecord, UserRepository, UserSortField } from '../../../core/auth/user-repository.ts'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { DatabaseUserRepository } from '../../../host-app/users/database-user-repository.ts'
import { MemoryUserRepository } from '../../../host-app/users/memory-user-repository.ts'
import { userMigrations } from '../../../host-app/users/migrations/001-users.ts'
import { forEachEngine } from '../../core/db/engines.ts'

let seed = 7
const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n)
const words = ['ada', 'Ada', 'max', 'Maxi', 'bo', 'zoe', 'Lee', 'lee', 'kim', 'ana ma', 'Sam']
const users: UserRecord[] = Array.from({ length: 240 }, (_, i) => ({
  id: `id${String(rand(100000)).padStart(5, '0')}x${i}`,
  name: `${words[rand(words.length)]} ${words[rand(words.length)]}${rand(3) === 0 ? ` ${rand(10)}` : ''}`,
  email: `${words[rand(words.length)]!.replace(' ', '')}.${String(i).padStart(3, '0')}@example.com`.toLowerCase(),
  role: ['admin', 'manager', 'staff'][rand(3)]!,
  passwordHash: 'h', sessionVersion: 0,
}))

function queries(): UserListQuery[] {
  const out: UserListQuery[] = []
  for (const field of ['name', 'email', 'role'] as UserSortField[]) {
    for (const direction of ['asc', 'desc'] as const) {
      for (const role of [undefined, 'admin', 'staff']) {
        for (const search of [undefined, 'a', 'ma', 'LEE', 'example', 'zz']) {
          for (const [page, perPage] of [[1, 10], [3, 7], [9, 25], [40, 10]] as const) {
            out.push({ page, perPage, sort: { field, direction }, ...(search ? { search } : {}), ...(role ? { role } : {}) })
          }
        }
      }
    }
  }
  return out
}

forEachEngine(t, 'the database store lists what the memory store lists', async (database, _engine, t) => {
  await migrateToLatest(database.db, userMigrations)
  const db = new DatabaseUserRepository(database.db)
  await db.seed(users)
  const memory = new MemoryUserRepository(users)
  const page = async (repo: UserRepository, query: UserListQuery) => {
    const result = await repo.list(query)
    return { ids: result.data.map((u) => u.id), total: result.total }
  }
  let differing = 0
  const all = queries()
  for (const query of all) {
    const [want, got] = [await page(memory, query), await page(db, query)]
    if (JSON.stringify(want) !== JSON.stringify(got)) {
      differing++
      if (differing <= 3) t.same(got, want, JSON.stringify(query))
    }
  }
  t.equal(differing, 0, `${all.length} queries, the same page and total from both stores`)
})
