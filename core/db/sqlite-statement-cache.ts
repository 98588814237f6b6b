import type BetterSqlite3 from 'better-sqlite3'
import type { SqliteDatabase, SqliteStatement } from 'kysely'
import { LRUCache } from 'lru-cache'

/**
 * Kysely's SQLite driver prepares every query anew: better-sqlite3's Statement constructor (SQL
 * parse and plan) was the largest single cost of a People page with users in memory (16 % of its
 * CPU, for the one query of the top bar's Inbox count). A prepared statement is reusable as long
 * as it is not in the middle of an iteration, and SQLite re-prepares it by itself when the schema
 * changes, so the same SQL text gets the same statement. Bounded, for SQL built with a varying
 * number of placeholders. `onWrite` hears of every statement that may write, just before it runs
 * (Kysely's driver runs what it prepares at once).
 */
export function cachePreparedStatements(sqlite: BetterSqlite3.Database, onWrite: () => void = () => {}, maxStatements = 500): SqliteDatabase {
  const statements = new LRUCache<string, BetterSqlite3.Statement>({ max: maxStatements })
  return {
    close: () => { statements.clear(); sqlite.close() },
    prepare(sql: string): SqliteStatement {
      const known = statements.get(sql)
      // A statement being iterated (Kysely's stream()) cannot run again until it finishes: a fresh one.
      const statement = known && !known.busy ? known : sqlite.prepare(sql)
      if (!known) statements.set(sql, statement)
      if (!statement.readonly) onWrite()
      return statement as unknown as SqliteStatement
    },
  }
}
