// A big list's estimate is kept under the database's write stamp: the next page of the same list
// needs no count (one statement, as a small list's), and a write through this instance makes it
// estimate again. Seen from outside: rows added by another connection (whose writes to users this
// instance does not hear) leave the kept estimate as it was until this instance writes.
import t from 'tap'
import pg from 'pg'
import { sql } from 'kysely'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { listenerName } from '../../../core/db/postgres-write-stamp.ts'
import { DatabaseUserRepository } from '../../../host-app/users/database-user-repository.ts'
import { userMigrations } from '../../../host-app/users/migrations/001-users.ts'
import { openPostgresSchema, postgresUnreachable, TEST_DATABASE_URL } from '../../core/db/engines.ts'
import { until } from '../../helpers/eventually.ts'
import { generateUsers } from './generated-users.ts'

const unreachable = await postgresUnreachable()

t.test('an estimate is kept until a write', { skip: unreachable ?? false }, async (t) => {
  const database = await openPostgresSchema(t)
  await migrateToLatest(database.db, userMigrations)
  await generateUsers(database.db, 20_000)
  await sql`analyze users`.execute(database.db)
  const repo = new DatabaseUserRepository(database.db)
  const page1 = () => repo.list({ page: 1, perPage: 10 })

  // The write stamp holds still once its listening connection is up (until then it moves on every call).
  const schema = (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]!.schema
  await page1()
  await until(t, 'the write stamp listens', async () => (await sql`select 1 from pg_stat_activity where application_name = ${listenerName(schema)} and query ilike 'listen%'`.execute(database.db)).rows.length > 0)
  const first = await page1()
  t.equal(first.estimated, true)
  t.ok(first.total > 15_000 && first.total < 25_000, `about 20,000 (${first.total})`)

  // Another connection doubles the table and refreshes the statistics.
  const other = new pg.Client({ connectionString: TEST_DATABASE_URL, options: `-c search_path=${schema}` })
  await other.connect()
  t.teardown(() => other.end())
  await other.query(`insert into users (id, name, email, role, password_hash, session_version, created_at)
    select 'x' || i, 'Other ' || i, 'x' || i || '@example.com', 'staff', 'h', 0, '2026-01-01' from generate_series(1, 20000) i`)
  await other.query('analyze users')
  const kept = await page1()
  t.same([kept.total, kept.estimated], [first.total, true], 'the kept estimate, no new one')
  t.equal((await repo.list({ page: 2, perPage: 10 })).estimated, true, 'another page of the same list: estimated')

  await repo.create({ name: 'New', email: 'new@example.com', role: 'staff', passwordHash: 'h' })
  const fresh = await page1()
  t.ok(fresh.total > 35_000 && fresh.total < 45_000, `after a write, estimated again: about 40,000 (${fresh.total})`)
})
