// The top bar's Inbox count is on every page, so it is kept between pages (sessions/kept-until-written.ts)
// until the database changes. Kept or not, it must be the count the database gives at that moment:
// after a signature, after a write that did not go through the session manager, once a due date
// has passed with no write at all, after another instance's write (on PostgreSQL once its
// notification arrives), and after a write that landed while the count was being taken. And it
// must actually be kept: asked again with nothing changed, no query runs.
import { sql } from 'kysely'
import t from 'tap'
import { openDatabase, writeStampOf, type Database, type Engine } from '../../../../core/db/database.ts'
import { forEachEngine, TEST_DATABASE_URL } from '../../../core/db/engines.ts'
import { until } from '../../../helpers/eventually.ts'
import { KeptUntilWritten } from '../../../../plugins/signature/sessions/kept-until-written.ts'
import { PEOPLE, sessionFixture } from './session-fixture.ts'

t.setTimeout(300_000)

/** The same database opened again, as another instance (or, on SQLite, another process) would. */
async function anotherInstance(t: { teardown(fn: () => unknown): void }, database: Database<any>, engine: Engine): Promise<Database<any>> {
  const other = engine === 'sqlite'
    ? openDatabase<any>({ sqliteFile: (await sql<{ name: string; file: string }>`pragma database_list`.execute(database.db)).rows.find((r) => r.name === 'main')!.file })
    : openDatabase<any>({ url: TEST_DATABASE_URL, schema: (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]!.schema })
  t.teardown(() => other.close())
  return other
}

forEachEngine(t, 'the Inbox count follows every change at once and is taken once while nothing changes', async (database, engine, t) => {
  let clock = new Date()
  const { manager, repository, sign, requestFor, db } = await sessionFixture(t, database, { now: () => clock })
  let queries = 0
  let duringCount: (() => Promise<unknown>) | undefined
  const pendingFor = repository.pendingFor.bind(repository)
  repository.pendingFor = async (userId: string) => {
    queries++
    const rows = await pendingFor(userId)
    const write = duringCount
    duringCount = undefined
    await write?.()
    return rows
  }
  const counts = async () => [await manager.waitingCount(PEOPLE.alice), await manager.waitingCount(PEOPLE.bruno), await manager.waitingCount(PEOPLE.chen)]

  t.same(await counts(), [0, 0, 0], 'nothing waits before any session')
  const first = await manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1', mode: 'sequential' })
  t.same(await counts(), [1, 0, 0], 'a sequential session: only the first signer\'s turn')

  // On PostgreSQL nothing is kept until the connection that hears other instances listens.
  const stamp = writeStampOf(db)!
  await until(t, 'the database\'s changes can be heard', async () => await stamp() === await stamp())
  const before = queries
  for (let i = 0; i < 5; i++) t.equal(await manager.waitingCount(PEOPLE.alice), 1)
  t.equal(queries - before, 0, 'asked again with nothing changed, the count is not taken again')

  await sign(PEOPLE.alice, requestFor(first, 'party-a'))
  t.same(await counts(), [0, 1, 0], 'after the first signature it is the second signer\'s turn')

  // A write that does not go through the session manager.
  await sql`update signing_sessions set status = 'cancelled' where id = ${first.id}`.execute(db)
  t.same(await counts(), [0, 0, 0], 'a session cancelled behind the manager\'s back leaves every count at once')

  const due = new Date(clock.getTime() + 60 * 60_000)
  await manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-xref', mode: 'parallel', dueAt: due.toISOString() })
  t.same(await counts(), [1, 1, 1], 'a parallel session: everyone\'s turn')
  clock = new Date(due.getTime())
  t.same(await counts(), [1, 1, 1], 'at the due instant it still counts')
  clock = new Date(due.getTime() + 1)
  t.same(await counts(), [0, 0, 0], 'a millisecond after the due date it counts no more, with no write')
  clock = new Date(due.getTime() - 60_000)
  t.same(await counts(), [1, 1, 1], 'a clock set back before the due date counts it again')

  // Another instance (on SQLite another process on the file) signs Chen's request: his count
  // drops at once on SQLite, once the notification arrives on PostgreSQL.
  const other = await anotherInstance(t, database, engine)
  await sql`update signing_session_requests set status = 'signed' where signer_user_id = ${PEOPLE.chen.id} and status = 'pending'`.execute(other.db)
  await until(t, 'Chen\'s count drops', async () => await manager.waitingCount(PEOPLE.chen) === 0)
  t.same(await counts(), [1, 1, 0], 'another instance\'s write reaches the count, and only the count it changes')

  // A write that lands while Alice's count is being taken: the count taken then may be either,
  // but the next one must see the write.
  duringCount = () => sql`update signing_sessions set status = 'cancelled' where status = 'active'`.execute(db)
  await sql`update signing_sessions set message = message`.execute(db) // so that the count is taken anew
  t.equal(await manager.waitingCount(PEOPLE.alice), 1, 'the count taken while the write lands still saw the session')
  t.equal(duringCount, undefined, 'the write landed while the count was being taken')
  t.equal(await manager.waitingCount(PEOPLE.alice), 0, 'a count taken while a write landed is not kept')
})

t.test('the counts kept are bounded: past the limit the oldest is dropped and counted again', async (t) => {
  const counts = new KeptUntilWritten<number>(() => 1, 2)
  const taken: string[] = []
  const ask = (user: string) => counts.of(user, new Date(), async () => {
    taken.push(user)
    return { value: 1, until: null }
  })
  for (const user of ['a', 'b', 'a', 'b', 'c', 'b', 'c', 'a']) await ask(user)
  t.same(taken, ['a', 'b', 'c', 'a'], 'a and b kept; c pushes a out, so a is counted again')
})
