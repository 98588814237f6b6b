import type { EventEmitter } from 'node:events'
import type pg from 'pg'
import type { Pool, PoolClient } from 'pg'
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely'

/** The channel of the notifications notifyWritesTo's triggers send, with the schema as payload. */
export const WRITES_CHANNEL = 'app_writes'
/** The listening connection's application_name (with the schema), so an operator or a test can find it. */
export const listenerName = (schema = '') => `app-writes ${schema}`.trim().slice(0, 63)

/**
 * Statements that cannot change a table's rows: everything else moves the stamp when it completes.
 * A plain EXPLAIN of a select (core/db/page-total.ts estimating a total) plans without running;
 * EXPLAIN ANALYZE runs its statement and is not in the list. A COPY of a select out to the client
 * (postgres-binary-copy.ts) reads as its select does.
 */
const READS = /^\s*(select|begin|start transaction|rollback|savepoint|release|show|set|listen|explain \(format json\) select|copy \(select)\b/i

/**
 * A migration adding, on PostgreSQL, a statement trigger to each table that notifies WRITES_CHANNEL
 * with the schema's name. The notification is part of the writing transaction: sent when it
 * commits, never when it rolls back. On SQLite nothing is needed (data_version sees every commit).
 */
export function notifyWritesTo(tables: readonly string[]): Migration {
  return {
    async up(db: Kysely<unknown>) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return
      await sql`
        create or replace function notify_app_writes() returns trigger language plpgsql as $$
        begin
          perform pg_notify(${sql.lit(WRITES_CHANNEL)}, current_schema());
          return null;
        end
        $$`.execute(db)
      for (const table of tables) {
        await sql`create trigger ${sql.raw(`${table}_notify_writes`)} after insert or update or delete or truncate on ${sql.table(table)}
          for each statement execute function notify_app_writes()`.execute(db)
      }
    },
    async down(db: Kysely<unknown>) {
      if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return
      for (const table of tables) await sql`drop trigger ${sql.raw(`${table}_notify_writes`)} on ${sql.table(table)}`.execute(db)
    },
  }
}

/** The server process of a connected client (pg sets it from BackendKeyData; its types omit it). */
const backendOf = (connection: PoolClient) => (connection as PoolClient & { processID: number }).processID

export interface PostgresWriteStamp {
  /** Wraps every pooled connection so that its writes move the stamp (call for each new pool). */
  track(pool: Pool): void
  stamp(): number
  close(): Promise<void>
}

/**
 * The write stamp of core/db/database.ts on PostgreSQL. It moves:
 * - when a statement of this instance that may write, or a commit, completes: at once, so this
 *   instance's next read after its own write never finds a cached answer from before it;
 * - when a notification from a table watched with notifyWritesTo arrives on a connection of its
 *   own that LISTENs: another instance's commit, a short delivery after it (its own commits come
 *   back too, from its own backends, and are not counted twice).
 * While that connection is not listening (before the first call has it connected, after it broke,
 * until it is back, or always with `listen: false`), no two calls return the same stamp, so a
 * cache keeps nothing. A ping every `pingMs` that gets no answer within `pingTimeoutMs` ends a
 * connection that went silent; another one is opened `retryMs` later. Opening one gives up after
 * `connectTimeoutMs` (a server that accepts and never answers would otherwise hold `close()`).
 */
export function postgresWriteStamp(options: { loadPg: () => Promise<typeof pg>; connectionString: string; schema?: string; listen?: boolean; connectTimeoutMs?: number; pingMs?: number; pingTimeoutMs?: number; retryMs?: number }): PostgresWriteStamp {
  let writes = 0
  let listening = false
  let closed = false
  let client: pg.Client | undefined
  let starting: Promise<void> | undefined
  let retry: NodeJS.Timeout | undefined
  let ping: NodeJS.Timeout | undefined
  // Backends of this instance's pool: their commits were counted when they completed here, so
  // their notifications, arriving later, would only end kept answers a second time.
  const ownBackends = new Set<number>()

  const lost = (broken: pg.Client) => {
    if (broken !== client) return
    listening = false
    client = undefined
    clearInterval(ping)
    broken.end().catch(() => {})
    if (!closed) retry = setTimeout(() => { retry = undefined; start() }, options.retryMs ?? 1000).unref()
  }

  const start = () => {
    starting ??= (async () => {
      const pgModule = await options.loadPg()
      // A query (the ping) unanswered for pingTimeoutMs fails: a peer gone silent, no reset sent.
      const next = new pgModule.Client({ connectionString: options.connectionString, application_name: listenerName(options.schema), keepAlive: true, query_timeout: options.pingTimeoutMs ?? 5000, connectionTimeoutMillis: options.connectTimeoutMs ?? 5000 })
      client = next
      next.on('error', () => lost(next))
      next.on('end', () => lost(next))
      next.on('notification', (message) => {
        if (message.channel === WRITES_CHANNEL && (!options.schema || message.payload === options.schema) && !ownBackends.has(message.processId)) writes++
      })
      try {
        await next.connect()
        await next.query(`listen ${WRITES_CHANNEL}`)
        if (closed || client !== next) {
          await next.end()
          return
        }
        listening = true
        ping = setInterval(() => next.query('select 1').catch(() => lost(next)), options.pingMs ?? 10_000).unref()
      } catch {
        lost(next)
      }
    })().finally(() => { starting = undefined })
  }

  return {
    track(pool) {
      pool.on('remove', (connection: PoolClient) => { ownBackends.delete(backendOf(connection)) })
      pool.on('connect', (connection: PoolClient) => {
        ownBackends.add(backendOf(connection))
        const query = connection.query as (...args: unknown[]) => Promise<unknown> | void
        connection.query = function (this: PoolClient, ...args: unknown[]) {
          const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | undefined)?.text
          const result: unknown = query.apply(this, args)
          if (typeof text === 'string' && READS.test(text)) return result
          // When it completes, failed or not (a failed statement may have written before failing).
          const moved = () => { writes++ }
          if (result instanceof Promise) result.then(moved, moved)
          else if (result && typeof (result as EventEmitter).once === 'function') (result as EventEmitter).once('end', moved).once('error', moved)
          else moved()
          return result
        } as typeof connection.query
      })
    },
    stamp() {
      if (listening) return writes
      if (!client && !starting && !retry && !closed && options.listen !== false) start()
      return ++writes
    },
    async close() {
      closed = true
      clearTimeout(retry)
      clearInterval(ping)
      await starting
      const last = client
      client = undefined
      listening = false
      await last?.end().catch(() => {})
    },
  }
}
