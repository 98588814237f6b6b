// Issue 36 item 15: with STORAGE_DRIVER=database a session's new revision and its rows commit in
// one transaction. The crash is real as far as PostgreSQL can tell: while the signing transaction
// holds the written (uncommitted) object, its server connection is terminated, as when the
// instance dies. The object was there — another writer of the same key waits on its lock — and
// afterwards nothing of it is: no object, no signature row, the session and request as before.
import pg from 'pg'
import t from 'tap'
import { DatabaseDisk } from '../../../core/storage/database-disk.ts'
import { openPostgresSchema, postgresUnreachable, TEST_DATABASE_URL } from '../db/engines.ts'
import { PEOPLE, sessionFixture } from '../../plugins/signature/sessions/session-fixture.ts'

t.setTimeout(180_000)

const LOCK_NOT_AVAILABLE = '55P03'

t.test('a connection lost between the object write and the commit leaves no object and no row', { skip: (await postgresUnreachable()) ?? false }, async (t) => {
  const database = await openPostgresSchema(t)
  const schema = (await database.db.selectNoFrom((eb) => eb.fn<string>('current_schema').as('s')).executeTakeFirstOrThrow()).s
  const observer = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await observer.connect()
  t.teardown(() => observer.end())
  await observer.query(`set search_path to "${schema}"`)

  let crash = false
  let written = ''
  const seen: { visibleToOthers?: number; lockedByTheSigning?: boolean; terminated?: number } = {}
  const { manager, db, sign, requestFor, sessionFiles, driver } = await sessionFixture(t, database, {
    storageDriver: 'database',
    hooks: {
      afterDocumentWritten: ({ documentKey }) => { written = documentKey },
      async beforeCommit() {
        if (!crash) return
        seen.visibleToOthers = Number((await observer.query('select count(*) as n from stored_objects where key = $1', [written])).rows[0].n)
        // The same key from another connection waits for the signing transaction's row: it is written, not committed.
        await observer.query('begin')
        await observer.query(`set local lock_timeout = '200ms'`)
        seen.lockedByTheSigning = await observer.query(`insert into stored_objects (disk, key, bytes, sha256, size, created_at) values ('test', $1, '\\x00', $2, 1, 'now')`, [written, '0'.repeat(64)])
          .then(() => false, (error: { code?: string }) => error.code === LOCK_NOT_AVAILABLE)
        await observer.query('rollback')
        // The instance dies: its connection goes, PostgreSQL rolls its transaction back.
        const holders = await observer.query(`select distinct l.pid from pg_locks l join pg_class c on c.oid = l.relation join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = $1 and c.relname = 'stored_objects' and l.mode = 'RowExclusiveLock' and l.pid <> pg_backend_pid()`, [schema])
        seen.terminated = holders.rows.length
        for (const { pid } of holders.rows) await observer.query('select pg_terminate_backend($1)', [pid])
      },
    },
  })
  t.equal(driver, 'database')
  const created = await manager.create(PEOPLE.ada, { template: 'agreement', signable: 'ag-1' })
  const sessionBefore = await db.selectFrom('signing_sessions').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow()
  t.same(await sessionFiles(created.id), ['000-frozen.pdf'], 'the frozen document committed with the session')

  crash = true
  await t.rejects(sign(PEOPLE.alice, requestFor(created, 'party-a')), 'the signing fails with its connection')
  crash = false
  t.equal(seen.visibleToOthers, 0, 'before the commit the object is invisible to everyone else')
  t.equal(seen.lockedByTheSigning, true, 'yet it is written inside the signing transaction (its key is locked)')
  t.equal(seen.terminated, 1, 'the signing connection was cut')

  t.same(await sessionFiles(created.id), ['000-frozen.pdf'], 'no object of the failed signature is left')
  t.equal(Number((await observer.query('select count(*) as n from stored_objects where key = $1', [written])).rows[0].n), 0)
  t.same(await db.selectFrom('signing_sessions').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow(), sessionBefore, 'the session row is as before')
  t.equal((await db.selectFrom('digital_signatures').select('uuid').where('status', '=', 'signed').execute()).length, 0, 'no signature row')

  // The pool replaces the lost connection: the same request signs now, and its document is stored.
  const result = await sign(PEOPLE.alice, requestFor(created, 'party-a'))
  t.equal(result.request.status, 'signed')
  t.ok(await new DatabaseDisk('test', db, '/nonexistent').exists(result.signed_document_path), 'the committed revision is in the database')
})
