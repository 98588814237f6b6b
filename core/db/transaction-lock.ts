import { sql, type Kysely } from 'kysely'
import type { Engine } from './database.ts'

/**
 * Holds `key` until the transaction ends, so that a check made inside it and the write it
 * allows are one step for everyone else taking the same key: the way to hold a rule that spans
 * rows no single conditional update covers (e.g. "one person signs one slot of a document").
 * PostgreSQL: a transaction-level advisory lock, shared by every instance on the database.
 * `key` is text (PostgreSQL refuses a NUL in it); build it with JSON.stringify of its parts.
 * SQLite: nothing to take; the app's one connection already runs one transaction at a time.
 */
/** `tx`: the open transaction (a Transaction is a Kysely); outside one, PostgreSQL releases the lock at once. */
export async function lockForTransaction(engine: Engine, tx: Kysely<any>, key: string): Promise<void> {
  if (engine === 'postgres') await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(tx)
}
