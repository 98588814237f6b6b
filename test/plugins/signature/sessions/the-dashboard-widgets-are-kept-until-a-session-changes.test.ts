// /dashboard's two signature widgets ("Sessions in progress", "Waiting for your signature") ran
// their statements on every visit: with empty tables they were four fifths of the page's CPU
// (bench row 2a, 398 µs a request against 47 before the widgets). Their rows are now kept like the
// Inbox count (sessions/kept-until-written.ts). Kept or not, they must be what the database says at
// that moment: after a session is created or signed, after a write behind the manager's back,
// once a due date has passed with no write at all, after another instance's write (on PostgreSQL
// once its notification arrives). And asked again with nothing changed, no statement runs.
import { sql } from 'kysely'
import t from 'tap'
import { openDatabase, writeStampOf } from '../../../../core/db/database.ts'
import { forEachEngine, TEST_DATABASE_URL } from '../../../core/db/engines.ts'
import { until } from '../../../helpers/eventually.ts'
import { PEOPLE, sessionFixture } from './session-fixture.ts'

t.setTimeout(300_000)

forEachEngine(t, 'sessions in progress and the inbox follow every change, and are read once while nothing changes', async (database, engine, t) => {
  let clock = new Date()
  const { manager, repository, sign, requestFor, db } = await sessionFixture(t, database, { now: () => clock })
  const statements = { inProgress: 0, pending: 0 }
  const inProgress = repository.inProgress.bind(repository)
  repository.inProgress = async (...args: Parameters<typeof inProgress>) => { statements.inProgress++; return inProgress(...args) }
  const pendingFor = repository.pendingFor.bind(repository)
  repository.pendingFor = async (userId: string) => { statements.pending++; return pendingFor(userId) }
  const listed = async () => {
    const { total, rows } = await manager.inProgress(PEOPLE.ada, 5)
    return { total, titles: rows.map((r) => `${r.title}: ${r.signed} of ${r.requests}`) }
  }
  const inboxOf = async (person: typeof PEOPLE.alice) => (await manager.inbox(person)).map((item) => `${item.signable.id}${item.yourTurn ? ' (turn)' : ''}`)

  t.same(await listed(), { total: 0, titles: [] }, 'nothing in progress before any session')
  t.same(await inboxOf(PEOPLE.alice), [])
  const first = await manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1', mode: 'sequential' })
  t.equal((await listed()).total, 1, 'a new session is in progress at once')
  t.same(await inboxOf(PEOPLE.bruno), ['ag-1'], 'and waits in its second signer\'s inbox, not yet their turn')

  // On PostgreSQL nothing is kept until the connection that hears other instances listens.
  const stamp = writeStampOf(db)!
  await until(t, 'the database\'s changes can be heard', async () => await stamp() === await stamp())
  await listed()
  await inboxOf(PEOPLE.bruno)
  const before = { ...statements }
  for (let i = 0; i < 5; i++) {
    t.equal((await listed()).total, 1)
    t.same(await inboxOf(PEOPLE.bruno), ['ag-1'])
  }
  t.same(statements, before, 'asked again with nothing changed, neither list is read again')

  await sign(PEOPLE.alice, requestFor(first, 'party-a'))
  t.match((await listed()).titles, [/: 1 of 3$/], 'a signature shows in the list at once')
  const afterWrite = statements.pending
  t.equal(await manager.waitingCount(PEOPLE.bruno), 1, 'the top bar counts it as Bruno\'s turn')
  t.same(await inboxOf(PEOPLE.bruno), ['ag-1 (turn)'], 'and makes it the next signer\'s turn')
  t.equal(statements.pending - afterWrite, 1, 'a visit after the write reads the rows once for the count and the inbox together')

  await sql`update signing_sessions set status = 'cancelled' where id = ${first.id}`.execute(db)
  t.same(await listed(), { total: 0, titles: [] }, 'a session cancelled behind the manager\'s back leaves the list at once')
  t.same(await inboxOf(PEOPLE.bruno), [], 'and the inbox')

  const due = new Date(clock.getTime() + 60 * 60_000)
  await manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-xref', mode: 'parallel', dueAt: due.toISOString() })
  t.equal((await listed()).total, 1)
  t.same(await inboxOf(PEOPLE.chen), ['ag-xref (turn)'])
  clock = new Date(due.getTime())
  t.equal((await listed()).total, 1, 'at the due instant it is still in progress')
  clock = new Date(due.getTime() + 1)
  t.equal((await listed()).total, 0, 'a millisecond after the due date it is no longer listed, with no write')
  t.same(await inboxOf(PEOPLE.chen), [], 'nor waiting')
  clock = new Date(due.getTime() - 60_000)
  t.equal((await listed()).total, 1, 'a clock set back before the due date lists it again')
  t.same(await inboxOf(PEOPLE.chen), ['ag-xref (turn)'])

  // Another instance (on SQLite another connection to the file) cancels it.
  const other = engine === 'sqlite'
    ? openDatabase<any>({ sqliteFile: (await sql<{ name: string; file: string }>`pragma database_list`.execute(db)).rows.find((r) => r.name === 'main')!.file })
    : openDatabase<any>({ url: TEST_DATABASE_URL, schema: (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]!.schema })
  t.teardown(() => other.close())
  await sql`update signing_sessions set status = 'cancelled' where status = 'active'`.execute(other.db)
  await until(t, 'another instance\'s write empties the list', async () => (await listed()).total === 0)
  await until(t, 'and Chen\'s inbox', async () => (await inboxOf(PEOPLE.chen)).length === 0)
})
