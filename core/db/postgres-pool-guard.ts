import type { Pool, PoolClient } from 'pg'
import { asDatabaseFault, isConnectionFault, unavailable } from './database-faults.ts'
import type { DatabaseHealth } from './database-health.ts'

/**
 * Sent on a connection to lift its timeouts (and the client's read bound) for work that may wait
 * long by design: migrations, which wait for another instance's migrations behind an advisory
 * lock. WITH_TIMEOUTS puts the connection's own settings back.
 */
export const WITHOUT_TIMEOUTS = 'set statement_timeout = 0; set lock_timeout = 0'
export const WITH_TIMEOUTS = 'reset statement_timeout; reset lock_timeout'

/** A connection's socket (pg's types omit it), to close a connection that went silent. */
const socketOf = (client: PoolClient) => (client as PoolClient & { connection?: { stream?: { destroy(): void } } }).connection?.stream

/**
 * Makes a broken connection a failed request instead of a dead process, and an unreachable server
 * a fast 503:
 * - every connection gets an 'error' listener for its whole life (node-postgres emits 'error' on a
 *   checked-out client whose socket breaks; with no listener the process exits), and so does the
 *   pool (for idle ones); the pool drops a broken connection and opens another when next needed;
 * - a statement unanswered `readBoundMs` after it was sent (the server paused, or a network that
 *   swallows packets) fails and its connection is closed: PostgreSQL's own statement_timeout,
 *   shorter, answers first whenever the server is alive;
 * - connection faults and timeouts become 503 errors with a stable code (database-faults.ts);
 * - while `health` says the server is down, taking a connection fails at once.
 * Installed last, so that it wraps every other wrapper of `client.query`.
 */
export function guardPool(pool: Pool, health: DatabaseHealth, readBoundMs: number): void {
  pool.on('error', (error) => health.suspect(error))
  pool.on('connect', (client: PoolClient) => {
    client.on('error', (error) => health.suspect(error))
    const query = client.query as (...args: unknown[]) => Promise<unknown> | void
    let bounded = readBoundMs > 0
    client.query = function (this: PoolClient, ...args: unknown[]) {
      if (args[0] === WITHOUT_TIMEOUTS) bounded = false
      else if (args[0] === WITH_TIMEOUTS) bounded = readBoundMs > 0
      const result = query.apply(this, args)
      if (!(result instanceof Promise)) return result
      const failed = (error: unknown) => {
        if (isConnectionFault(error)) health.suspect(error)
        throw asDatabaseFault(error)
      }
      if (!bounded) return result.catch(failed)
      let timer: NodeJS.Timeout | undefined
      const silent = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          // The connection is useless now (its answer, if any, would come to a query nobody waits
          // for): closing it makes the pool drop it on release.
          socketOf(client)?.destroy()
          const error = unavailable(undefined, `The database did not answer within ${readBoundMs} ms`)
          health.suspect(error)
          reject(error)
        }, readBoundMs)
      })
      return Promise.race([result, silent]).finally(() => clearTimeout(timer)).catch(failed)
    } as typeof client.query
  })

  const connect = pool.connect.bind(pool) as () => Promise<PoolClient>
  pool.connect = ((callback?: unknown) => {
    if (callback) return (connect as (cb: unknown) => void)(callback)
    if (!health.admits()) return Promise.reject(unavailable())
    return connect().catch((error: unknown) => {
      health.suspect(error)
      throw isConnectionFault(error) ? unavailable(error) : asDatabaseFault(error)
    })
  }) as typeof pool.connect
}
