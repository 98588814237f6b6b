// Test helper: the same test body runs on a fresh SQLite file and, when reachable, on the local
// PostgreSQL in a schema of its own that is dropped afterwards.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { openDatabase, quoteIdentifier, type Database, type Engine } from '../../../core/db/database.ts'

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

interface TapLike {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  test(name: string, fn: (t: any) => Promise<void>): unknown
}

/** null when PostgreSQL answers, otherwise why not (shown as the skip reason). */
export async function postgresUnreachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.query('select 1')
    return null
  } catch (error) {
    return `PostgreSQL not reachable at ${TEST_DATABASE_URL.replace(/\/\/[^@]*@/, '//')}: ${(error as Error).message}`
  } finally {
    await client.end().catch(() => {})
  }
}

export async function openSqlite(t: { teardown(fn: () => unknown): void }): Promise<Database<any>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'db-test-'))
  const database = openDatabase<any>({ sqliteFile: path.join(dir, 'test.sqlite') })
  t.teardown(async () => {
    await database.close()
    await rm(dir, { recursive: true, force: true })
  })
  return database
}

export async function openPostgresSchema(t: { teardown(fn: () => unknown): void }): Promise<Database<any>> {
  const schema = `t_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL })
  await admin.connect()
  await admin.query(`create schema ${quoteIdentifier(schema)}`)
  const database = openDatabase<any>({ url: TEST_DATABASE_URL, schema })
  t.teardown(async () => {
    await database.close()
    await admin.query(`drop schema ${quoteIdentifier(schema)} cascade`)
    await admin.end()
  })
  return database
}

/** Declares one subtest per engine; PostgreSQL's is skipped, with the reason, when it is not there. */
export function forEachEngine(t: TapLike, name: string, body: (database: Database<any>, engine: Engine, t: any) => Promise<void>): void {
  t.test(`${name} (sqlite)`, async (st) => body(await openSqlite(st), 'sqlite', st))
  t.test(`${name} (postgres)`, async (st) => {
    const reason = await postgresUnreachable()
    if (reason) return st.skip(reason)
    await body(await openPostgresSchema(st), 'postgres', st)
  })
}
