import { CompiledQuery, SelectQueryNode, type Compilable, type Kysely } from 'kysely'
import { directReaderOf } from './database.ts'

/**
 * A query built and compiled once, run with each call's arguments in the places of its
 * parameters. Kysely builds a tree of frozen nodes and compiles it to SQL on every call: for the
 * queries a page runs every time (the signed-in user, the top bar's Inbox count) that was about a
 * tenth of a People page's CPU. Only for queries whose SQL does not depend on the values (no
 * `in` over a list of varying length): each argument must land in exactly one parameter, which is
 * checked once, when the query is compiled.
 */
export function compiledOnce<A extends readonly (string | number)[], R>(db: Kysely<any>, build: (...args: A) => Compilable<R>, arity: A['length']): (...args: A) => Promise<R[]> {
  // Compiled at once (no connection needed): a query that breaks the rule stops the boot.
  const { sql, parameters, from, ...query } = (() => {
    const markers = Array.from({ length: arity }, (_, i) => `\u0000compiled-once-argument-${i}\u0000`)
    const query = build(...(markers as unknown as A)).compile()
    const from = query.parameters.map((value) => markers.indexOf(value as string))
    for (let i = 0; i < arity; i++) {
      if (from.filter((at) => at === i).length !== 1) throw new Error(`compiledOnce: argument ${i} is not exactly one parameter of ${query.sql}`)
    }
    return { sql: query.sql, parameters: query.parameters, from, isSelect: SelectQueryNode.is(query.query) }
  })()
  // On SQLite a select runs at once when the connection is free, without Kysely's turn-taking.
  const direct = query.isSelect ? directReaderOf(db) : undefined
  return async (...args: A) => {
    const values = parameters.map((value, j) => (from[j]! >= 0 ? args[from[j]!] : value))
    const rows = direct?.(sql, values)
    if (rows) return rows as R[]
    const result = await db.executeQuery(CompiledQuery.raw(sql, values) as CompiledQuery<R>)
    return result.rows
  }
}
