import { mkdirSync } from 'node:fs'
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, PostgresDialect } from 'kysely'
import type { Pool } from 'pg'
import { namePreparedStatements } from './postgres-prepared-statements.ts'
import { postgresWriteStamp } from './postgres-write-stamp.ts'
import { readsOfOneTurn } from './reads-of-one-turn.ts'
import { QueuedSqliteDialect } from './sqlite-queued-dialect.ts'
import { cachePreparedStatements } from './sqlite-statement-cache.ts'

export type Engine = 'sqlite' | 'postgres'

export interface DatabaseOptions {
  /** postgres://... selects PostgreSQL (several instances share it); absent selects SQLite. */
  url?: string
  /** File of the embedded SQLite database (':memory:' allowed). */
  sqliteFile?: string
  /** PostgreSQL only: the schema to work in (tests give each run its own). */
  schema?: string
  /**
   * PostgreSQL only: run queries as named prepared statements (postgres-prepared-statements.ts).
   * On by default; off for a connection pooler in transaction mode that cannot keep them.
   */
  preparedStatements?: boolean
  /**
   * PostgreSQL only: hear other instances' writes on a connection of its own that LISTENs
   * (postgres-write-stamp.ts). On by default; off behind a pooler in transaction mode, which
   * cannot keep a LISTEN: the write stamp then moves on every call, so caches keep nothing.
   */
  listen?: boolean
}

export interface Database<DB = unknown> {
  readonly db: Kysely<DB>
  readonly engine: Engine
  close(): Promise<void>
}

/** One Kysely instance; the engine is chosen once here and nothing else needs to know it. */
export function openDatabase<DB>(options: DatabaseOptions): Database<DB> {
  if (options.url) {
    if (!/^postgres(ql)?:\/\//.test(options.url)) throw new Error('DATABASE_URL must be a postgres:// URL')
    const schemaOption = options.schema ? { options: `-c search_path=${quoteIdentifier(options.schema)}` } : {}
    // pg is imported when the first query needs the pool: an instance on SQLite never loads it
    // (a few MiB of RSS at start).
    const loadPg = async () => (await import('pg')).default
    const writeStamp = postgresWriteStamp({ loadPg, connectionString: options.url, listen: options.listen !== false, ...(options.schema ? { schema: options.schema } : {}) })
    const pool = async (): Promise<Pool> => {
      const pg = await loadPg()
      // search_path per connection: every query of this instance stays in its schema.
      const pool = new pg.Pool({ connectionString: options.url, max: 10, ...schemaOption })
      if (options.preparedStatements !== false) namePreparedStatements(pool, pg.Query)
      // Outermost, so that it sees each call as Kysely makes it and hears when it completes.
      writeStamp.track(pool)
      return pool
    }
    let opened: Pool | undefined
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: async () => (opened = await pool()) }) })
    writeStamps.set(db, writeStamp.stamp)
    poolStats.set(db, () => opened && { total: opened.totalCount, idle: opened.idleCount, waiting: opened.waitingCount })
    return { db, engine: 'postgres', close: async () => { await writeStamp.close(); await db.destroy() } }
  }
  const file = options.sqliteFile ?? ':memory:'
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true })
  const sqlite = new BetterSqlite3(file)
  // WAL lets readers go on while one writer writes; better-sqlite3 is synchronous anyway.
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  let writes = 0
  const statements = cachePreparedStatements(sqlite, () => { writes++ })
  const dialect = new QueuedSqliteDialect({ database: statements })
  const db = new Kysely<DB>({ dialect })
  // Another connection's commit (another process on the same file) moves data_version. Reading
  // it opens a read transaction (file locks: 11 µs a call inside the server on this VM). The
  // stamps asked for during one turn share one read, made at its end, after every one of them was
  // asked (readsOfOneTurn's reasoning), so none misses a commit that had landed when it asked.
  // Measured on a People page with users in memory (npm start's process, A-B in both orders):
  // 354 -> 281 µs CPU per page at saturation, 394 -> 314 at 2,000 pages/s. Waiting for the end of
  // the turn alone, before the old read per call, gave about half of that: the page then finishes
  // in the check phase, with the loop not going to sleep in between.
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck()
  let seenVersion: unknown = dataVersion.get()
  const oneReadPerTurn = readsOfOneTurn()
  const readStamp = async () => {
    const version = dataVersion.get()
    if (version !== seenVersion) {
      seenVersion = version
      writes++
    }
    return writes
  }
  writeStamps.set(db, () => oneReadPerTurn('data_version', readStamp))
  // A read needs no turn when nobody holds the connection: better-sqlite3 answers synchronously,
  // outside any transaction (Kysely holds the connection for a transaction's whole length).
  directReaders.set(db, (text, parameters) => (dialect.idle ? statements.prepare(text).all(parameters) : undefined))
  return { db, engine: 'sqlite', close: () => db.destroy() }
}

type DirectReader = (sql: string, parameters: readonly unknown[]) => readonly unknown[] | undefined
const directReaders = new WeakMap<object, DirectReader>()

/**
 * For the Kysely instance openDatabase made on SQLite (not one derived from it with plugins, nor a
 * transaction): a function that runs a select at once and returns its rows, or undefined when the
 * connection is busy and the query must wait its turn through Kysely. Undefined on PostgreSQL.
 */
export function directReaderOf(db: object): DirectReader | undefined {
  return directReaders.get(db)
}

const writeStamps = new WeakMap<object, () => number | Promise<number>>()

/**
 * For the Kysely instance openDatabase made: a number that changes whenever the database may have
 * changed since it was last read, for caches that must not answer from before a change. It moves
 * with every statement of this process that may write. On SQLite also with any other connection's
 * commit (data_version), read at the end of the turn it was asked in, so it comes as a promise
 * and includes every commit made before it was asked. On PostgreSQL (a number, at once) with
 * another instance's commit to a table watched with notifyWritesTo (postgres-write-stamp.ts), once
 * its notification arrives: a short delivery after that commit, the one window in which a cache
 * there can lag.
 */
export function writeStampOf(db: object): (() => number | Promise<number>) | undefined {
  return writeStamps.get(db)
}

export interface PoolStats {
  /** Connections open (in use + idle). */
  total: number
  idle: number
  /** Queries waiting for a connection. */
  waiting: number
}

const poolStats = new WeakMap<object, () => PoolStats | undefined>()

/**
 * For the Kysely instance openDatabase made on PostgreSQL: its pool's connections now (undefined
 * before the first query opened the pool). Undefined on SQLite, which has one connection.
 */
export function poolStatsOf(db: object): (() => PoolStats | undefined) | undefined {
  return poolStats.get(db)
}

export function quoteIdentifier(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Refused SQL identifier ${JSON.stringify(name)}`)
  return `"${name}"`
}
