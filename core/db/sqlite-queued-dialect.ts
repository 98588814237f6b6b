import { SqliteDialect, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely'

/**
 * SQLite's one connection, handed to one user at a time in arrival order, and whether anyone
 * holds it now.
 *
 * Kysely's own SQLite driver guards the connection with a mutex whose release wakes every waiter
 * at once; all but one find it taken again and wait again: n² wake-ups for n waiting queries
 * (20,000 concurrent one-row queries cost 600 µs of CPU each instead of 15). Here the waiters
 * queue and only the next one is woken, so Kysely's mutex is always free when it is asked.
 * Kysely holds the connection from a transaction's begin to its commit, so "no one holds it"
 * also means "no transaction is open on it" (see readIfIdle in database.ts).
 */
export class QueuedSqliteDialect extends SqliteDialect {
  #held = false
  readonly #waiting: (() => void)[] = []

  constructor(config: SqliteDialectConfig) {
    super(config)
  }

  get idle(): boolean {
    return !this.#held
  }

  #take(): Promise<void> | void {
    if (!this.#held) {
      this.#held = true
      return
    }
    return new Promise<void>((resolve) => this.#waiting.push(resolve))
  }

  #handOn(): void {
    const next = this.#waiting.shift()
    // Still held: it passes straight to the next in line.
    if (next) next()
    else this.#held = false
  }

  override createDriver(): Driver {
    const inner = super.createDriver()
    const take = () => this.#take()
    const handOn = () => this.#handOn()
    return {
      init: () => inner.init(),
      async acquireConnection(): Promise<DatabaseConnection> {
        await take()
        try {
          return await inner.acquireConnection()
        } catch (error) {
          handOn()
          throw error
        }
      },
      async releaseConnection(connection) {
        try {
          await inner.releaseConnection(connection)
        } finally {
          handOn()
        }
      },
      beginTransaction: (connection, settings) => inner.beginTransaction(connection, settings),
      commitTransaction: (connection) => inner.commitTransaction(connection),
      rollbackTransaction: (connection) => inner.rollbackTransaction(connection),
      savepoint: (connection, name, compile) => inner.savepoint!(connection, name, compile),
      rollbackToSavepoint: (connection, name, compile) => inner.rollbackToSavepoint!(connection, name, compile),
      releaseSavepoint: (connection, name, compile) => inner.releaseSavepoint!(connection, name, compile),
      destroy: () => inner.destroy(),
    }
  }
}
