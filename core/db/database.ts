import { mkdirSync } from 'node:fs'
import path from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { Kysely, PostgresDialect } from 'kysely'
import type pg from 'pg'
import type { Pool } from 'pg'
import type { FaultLog } from '../http/late-log.ts'
import { alwaysUp, watchDatabaseHealth, type DatabaseHealth, type DatabaseHealthSnapshot } from './database-health.ts'
import { answerBinaryCopyOut } from './postgres-binary-copy.ts'
import { guardPool } from './postgres-pool-guard.ts'
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
  /** PostgreSQL only: how long to wait (DEFAULT_TIMEOUTS for what is not given). */
  timeouts?: Partial<DatabaseTimeouts>
}

export interface DatabaseTimeouts {
  /** To open a connection (a wait for a free one in the pool is not bounded: under load it is a queue). */
  connectMs: number
  /** PostgreSQL's statement_timeout: a statement running longer is cancelled (0: none). */
  statementMs: number
  /** PostgreSQL's lock_timeout: a statement waiting longer for a lock is cancelled (0: none). */
  lockMs: number
}

/**
 * Short enough that a request on a paused or unreachable server answers 503 in seconds, long
 * enough for any statement of a request. Migrations run without them (migrate.ts).
 */
export const DEFAULT_TIMEOUTS: DatabaseTimeouts = { connectMs: 5000, statementMs: 10_000, lockMs: 5000 }
/** The client gives up on a statement this long after the server should have cancelled it itself. */
const READ_GRACE_MS = 2000

export interface Database<DB = unknown> {
  readonly db: Kysely<DB>
  readonly engine: Engine
  /** Whether the database answers, as this instance last saw it (SQLite: always up). */
  health(): DatabaseHealthSnapshot
  /** Where faults are logged (one JSON line per change of state); until called, stderr. */
  reportFaultsTo(log: FaultLog): void
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
    const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
    const connectionString = options.url
    // So that an operator (or a test) finds this instance's backends in pg_stat_activity.
    const applicationName = `app ${options.schema ?? ''}`.trim().slice(0, 63)
    const writeStamp = postgresWriteStamp({ loadPg, connectionString, listen: options.listen !== false, connectTimeoutMs: timeouts.connectMs, ...(options.schema ? { schema: options.schema } : {}) })
    const health = watchDatabaseHealth({
      name: 'PostgreSQL',
      async probe() {
        const pg = await loadPg()
        const client = new pg.Client({ connectionString, fallback_application_name: applicationName, connectionTimeoutMillis: timeouts.connectMs, query_timeout: timeouts.connectMs })
        client.on('error', () => {})
        try {
          await client.connect()
          await client.query('select 1')
          await client.end()
        } catch (error) {
          (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy()
          throw error
        }
      },
    })
    const pool = async (): Promise<Pool> => {
      const pg = await loadPg()
      // search_path per connection: every query of this instance stays in its schema.
      const pool = new pg.Pool({
        connectionString,
        max: 10,
        // The connect timeout on each connection, not on the pool: the pool's would also end a
        // wait for a free connection under load, which is a queue, not a fault.
        Client: clientWithConnectTimeout(pg.Client, timeouts.connectMs),
        fallback_application_name: applicationName,
        // Sent at connect: PostgreSQL cancels a statement that runs, or waits for a lock, longer.
        ...(timeouts.statementMs > 0 ? { statement_timeout: timeouts.statementMs } : {}),
        ...(timeouts.lockMs > 0 ? { lock_timeout: timeouts.lockMs } : {}),
        // A peer that vanished without a reset (a failover, a cut cable) is noticed on an idle connection.
        keepAlive: true,
        ...schemaOption,
      })
      // First, so that every wrapper below sees a binary COPY as a statement with a result (binaryCopyOf).
      answerBinaryCopyOut(pool, pg.Query)
      if (options.preparedStatements !== false) namePreparedStatements(pool, pg.Query)
      // Outside the prepared statements, so that it sees each call as Kysely makes it and hears when it completes.
      writeStamp.track(pool)
      guardPool(pool, health, timeouts.statementMs > 0 ? timeouts.statementMs + READ_GRACE_MS : 0)
      return pool
    }
    let opened: Pool | undefined
    const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: async () => (opened = await pool()) }) })
    writeStamps.set(db, writeStamp.stamp)
    poolStats.set(db, () => opened && { total: opened.totalCount, idle: opened.idleCount, waiting: opened.waitingCount })
    healths.set(db, health)
    return {
      db,
      engine: 'postgres',
      health: health.snapshot,
      reportFaultsTo: health.reportTo,
      close: async () => {
        health.close()
        await writeStamp.close()
        await db.destroy()
      },
    }
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
  const health = alwaysUp()
  healths.set(db, health)
  return { db, engine: 'sqlite', health: health.snapshot, reportFaultsTo: health.reportTo, close: () => db.destroy() }
}

function clientWithConnectTimeout(Client: typeof pg.Client, connectMs: number): typeof pg.Client {
  return class extends Client {
    constructor(config?: pg.ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectMs })
    }
  }
}

const healths = new WeakMap<object, DatabaseHealth>()

/**
 * For the Kysely instance openDatabase made: whether its database answers, as this instance last
 * saw it (database-health.ts), without a query: cheap enough for every readiness check. Undefined
 * for any other object.
 */
export function databaseHealthOf(db: object): DatabaseHealthSnapshot | undefined {
  return healths.get(db)?.snapshot()
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
