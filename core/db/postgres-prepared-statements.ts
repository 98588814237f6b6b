import type { Pool, PoolClient, Query as PgQuery, QueryResult } from 'pg'

/** SQLSTATE 0A000 with this message: a prepared statement's result changed shape (an ALTER TABLE since). */
const STALE_PLAN = /cached plan must not change result type/

/**
 * Runs Kysely's queries as named prepared statements, so PostgreSQL parses and plans each SQL
 * text once per connection instead of on every execution (the larger part of a backend's CPU for
 * the short queries of a page: a signed-in People page makes three). Kysely's driver calls
 * `client.query(text, values)`; each pooled client gets that call wrapped, with one name per
 * distinct SQL text shared by every connection.
 *
 * Bounded: at most `maxStatements` texts get a name (SQL with a varying number of placeholders
 * would otherwise prepare without end on every connection); later ones run unnamed, as before.
 * A schema changed under a running instance (another instance's migration) makes PostgreSQL
 * refuse a prepared `select *` whose columns changed: that text is then run unnamed from then on,
 * the failed call retried once unnamed (outside a transaction that succeeds; inside one the
 * transaction was already aborted and the first error is thrown).
 */
export function namePreparedStatements(pool: Pool, Query: typeof PgQuery, maxStatements = 1000): void {
  const names = new Map<string, string>()
  const unnamed = new Set<string>()
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text)
    if (name === undefined && names.size < maxStatements) {
      name = `k${names.size}`
      names.set(text, name)
    }
    return name
  }

  pool.on('connect', (client: PoolClient) => {
    const query = client.query as (...args: unknown[]) => Promise<QueryResult> | void
    // A Query made from the text, named afterwards: pg copies a config object property by
    // property on every call (its cloneQueryConfig, 2 % of a People page on PostgreSQL).
    const named = (self: PoolClient, name: string, text: string, values: unknown[]) => new Promise<QueryResult>((resolve, reject) => {
      const submitted = new Query(text, values, (error: Error | undefined, result: QueryResult) => (error ? reject(error) : resolve(result)))
      ;(submitted as unknown as { name: string }).name = name
      query.call(self, submitted)
    })
    client.query = function (this: PoolClient, ...args: unknown[]) {
      const [text, values, callback] = args
      // Only the promise form with parameters, which is what Kysely's driver uses; queries without
      // parameters (begin, commit) keep the one-message simple protocol.
      const name = typeof text === 'string' && Array.isArray(values) && values.length > 0 && callback === undefined && !unnamed.has(text) ? nameOf(text) : undefined
      if (name === undefined) return query.apply(this, args)
      return named(this, name, text as string, values as unknown[]).catch((error: Error) => {
        if (!STALE_PLAN.test(error?.message ?? '')) throw error
        unnamed.add(text as string)
        return (query.call(this, text, values) as Promise<QueryResult>).catch(() => { throw error })
      })
    } as typeof client.query
  })
}
