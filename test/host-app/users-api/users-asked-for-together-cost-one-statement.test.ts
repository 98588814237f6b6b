// On PostgreSQL, a user looked up or a list page asked for by several requests in one turn costs
// one statement (every signed-in request looks its user up; under load, the same user's requests
// arrive together), each caller still gets records of its own, and a lookup asked once that
// statement is on its way is not answered from it. On SQLite, where a read is answered at once
// without a round trip, each caller runs its own.
import t from 'tap'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { DatabaseUserRepository } from '../../../host-app/users/database-user-repository.ts'
import { userMigrations } from '../../../host-app/users/migrations/001-users.ts'
import { forEachEngine } from '../../core/db/engines.ts'
import { countStatements } from '../../helpers/count-statements.ts'

const endOfTurn = () => new Promise((resolve) => setImmediate(resolve))

forEachEngine(t, 'users asked for together', async (database, engine, t) => {
  await migrateToLatest(database.db, userMigrations)
  const counter = countStatements(database.db)
  const repo = new DatabaseUserRepository(counter.db)
  await repo.seed(Array.from({ length: 25 }, (_, i) => ({ id: `u${i}`, name: `Person ${i}`, email: `p${i}@example.com`, role: i % 3 ? 'staff' : 'manager', passwordHash: 'h', sessionVersion: 0 })))
  const shares = engine === 'postgres'
  const counted = async <T>(run: () => Promise<T>) => { counter.n = 0; const result = await run(); return { statements: counter.n, result } }

  const lists = await counted(() => Promise.all(Array.from({ length: 10 }, () => repo.list({ page: 2, perPage: 5, sort: { field: 'email', direction: 'desc' } }))))
  t.equal(lists.statements, shares ? 1 : 10, `ten equal list pages: ${shares ? 'one statement' : 'one statement each'}`)
  t.same(lists.result.map((r) => r.data.map((u) => u.id)), Array(10).fill(lists.result[0]!.data.map((u) => u.id)), 'every caller has the same page')
  t.equal(lists.result[0]!.total, 25)
  t.not(lists.result[0]!.data[0], lists.result[1]!.data[0], 'each caller has records of its own')

  const mixed = await counted(() => Promise.all([
    repo.list({ page: 1, perPage: 5 }), repo.list({ page: 1, perPage: 5, sort: { field: 'name', direction: 'asc' } }),
    repo.list({ page: 1, perPage: 5, role: 'manager' }), repo.list({ page: 1, perPage: 5, search: 'person 1' }),
    repo.list({ page: 1, perPage: 5, search: 'person 1', searchFields: ['email'] }), repo.list({ page: 2, perPage: 5 }),
  ]))
  t.equal(mixed.statements, shares ? 5 : 6, 'only lists that are the same share (the default sort is name ascending)')
  t.same(mixed.result[0]!.data, mixed.result[1]!.data)
  t.same(mixed.result[2]!.data.map((u) => u.role), Array(5).fill('manager'))
  t.same(mixed.result[4]!.data, [], 'the search in e-mails alone finds nobody named "person 1"')
  t.not(mixed.result[3]!.data.length, 0)
})

forEachEngine(t, 'users looked up together', async (database, engine, t) => {
  await migrateToLatest(database.db, userMigrations)
  const selects = countStatements(database.db, (node) => node.kind === 'SelectQueryNode')
  const repo = new DatabaseUserRepository(selects.db)
  await repo.seed([{ id: 'u1', name: 'One', email: 'one@example.com', role: 'staff', passwordHash: 'h', sessionVersion: 0 }, { id: 'u2', name: 'Two', email: 'two@example.com', role: 'staff', passwordHash: 'h', sessionVersion: 0 }])
  const sent = async (body: () => Promise<void>) => { selects.n = 0; await body(); return selects.n }

  const together = await sent(async () => {
    const found = await Promise.all([repo.findById('u1'), repo.findById('u1'), repo.findById('u2'), repo.findById('u1'), repo.findById('nobody')])
    t.same(found.map((u) => u?.id ?? null), ['u1', 'u1', 'u2', 'u1', null])
    t.same(found[2], { id: 'u2', name: 'Two', email: 'two@example.com', role: 'staff', passwordHash: 'h', sessionVersion: 0 })
    t.not(found[0], found[1], 'each caller has a record of its own')
  })
  // On SQLite a lookup is answered by the statement cache directly, which Kysely's plugins never see.
  if (engine === 'postgres') t.equal(together, 1, 'five lookups of three ids in one turn: one statement')

  // Asked once the first lookup is on its way (its answer needs at least a turn of I/O): another statement.
  const later = await sent(async () => {
    const first = repo.findById('u1')
    await endOfTurn()
    const second = repo.findById('u1')
    t.same([(await first)?.id, (await second)?.id], ['u1', 'u1'])
  })
  if (engine === 'postgres') t.equal(later, 2, 'the later lookup did not join the one already sent')
  await repo.revokeSessions('u1')
  t.equal((await repo.findById('u1'))?.sessionVersion, 1, 'a lookup asked after a revocation committed sees it')
  t.equal(await repo.findById("u1' or '1'='1"), null, 'an id is a value')
  // Ids travel as one array parameter: what an array literal treats specially stays part of the id.
  const odd = ['u1,u2', '{u1}', '{u1,u2}', 'u1"', '"u1"', 'u1\\', 'NULL', '']
  const found = await Promise.all([...odd, 'u2'].map((id) => repo.findById(id)))
  t.same(found.map((u) => u?.id ?? null), [...odd.map(() => null), 'u2'], 'none of them finds anybody, and they do not spoil the turn\'s other lookups')
  // PostgreSQL refuses a NUL byte in text: one such id must not fail the others' lookups.
  const [bad, good] = await Promise.allSettled([repo.findById('u1\u0000'), repo.findById('u2')])
  t.same([bad.status, good.status], ['fulfilled', 'fulfilled'])
  t.same([(bad as PromiseFulfilledResult<unknown>).value, (good as PromiseFulfilledResult<{ id: string } | null>).value?.id], [null, 'u2'])
})
