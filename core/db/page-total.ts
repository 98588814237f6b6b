import { CompiledQuery, PostgresAdapter, sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import { writeStampOf } from './database.ts'

/**
 * Up to this many matching rows a list's total is counted exactly; above it the count would read
 * every match (a million for an unfiltered page 1) and the total is estimated instead.
 */
export const EXACT_COUNT_LIMIT = 1000

export interface PageTotal {
  total: number
  /** True when `total` is the planner's estimate ("about N"), not a count. */
  estimated: boolean
}

/**
 * The number of rows `matching` selects, counted only up to EXACT_COUNT_LIMIT + 1: a scalar
 * subquery to put in the page's own select list (one statement for both), which reads at most that
 * many index entries whatever the size of the table.
 */
export function countUpTo(matching: SelectQueryBuilder<any, any, any>, limit = EXACT_COUNT_LIMIT): RawBuilder<number | string> {
  return sql<number | string>`(select count(*) from (${matching.select(sql`1`.as('one')).limit(limit + 1)}) as counted)`
}

/**
 * The total for a page, given what the page's statement learnt: `upTo` (countUpTo's value, from
 * its first row) and the rows it returned. Exact when countUpTo saw no more than the limit, or when
 * the page is the last one (fewer rows than asked for); otherwise, on PostgreSQL, the planner's
 * estimate for `matching` (EXPLAIN, no rows read), never less than the rows known to exist; on
 * SQLite, which keeps no estimates, an exact count.
 */
export async function pageTotal(db: Kysely<any>, matching: SelectQueryBuilder<any, any, any>, seen: { upTo: number; offset: number; rows: number; perPage: number }, limit = EXACT_COUNT_LIMIT): Promise<PageTotal> {
  if (seen.upTo <= limit) return { total: seen.upTo, estimated: false }
  if (seen.rows > 0 && seen.rows < seen.perPage) return { total: seen.offset + seen.rows, estimated: false }
  const known = Math.max(limit + 1, seen.offset + seen.rows)
  if (db.getExecutor().adapter instanceof PostgresAdapter) return { total: Math.max(known, await plannedRows(db, matching)), estimated: true }
  const counted = await matching.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow() as { n: number | string }
  return { total: Number(counted.n), estimated: false }
}

/** How many estimates each database keeps (one per distinct filter and search). */
const KEPT_ESTIMATES = 1000
const estimates = new WeakMap<object, Map<string, { stamp: number; total: number }>>()

/**
 * An estimate made for the same rows under the same write stamp (core/db/database.ts: it moves
 * with any write that may have changed them), so the page's statement can leave the count out: a
 * big list's next page is then the one statement a small list's is. `remember` keeps the estimate
 * about to be made. Without a write stamp (a Kysely instance openDatabase did not make) nothing is
 * kept.
 */
export async function keptEstimate(db: Kysely<any>, matching: SelectQueryBuilder<any, any, any>): Promise<{ total?: number; remember(total: PageTotal): void }> {
  const stampOf = writeStampOf(db)
  // SQLite counts (it keeps no estimates): nothing to keep, and its stamp would cost a turn.
  if (!stampOf || !(db.getExecutor().adapter instanceof PostgresAdapter)) return { remember: () => {} }
  const stamp = await stampOf()
  const compiled = matching.compile()
  const key = `${compiled.sql}\u0000${JSON.stringify(compiled.parameters)}`
  let kept = estimates.get(db)
  if (!kept) estimates.set(db, kept = new Map())
  const found = kept.get(key)
  return {
    ...(found?.stamp === stamp ? { total: found.total } : {}),
    remember(total) {
      if (!total.estimated) return
      kept.delete(key)
      if (kept.size >= KEPT_ESTIMATES) kept.delete(kept.keys().next().value!)
      kept.set(key, { stamp, total: total.total })
    },
  }
}

/** The planner's estimate of the rows `matching` selects: the catalogue's statistics, no row read. */
export async function plannedRows(db: Kysely<any>, matching: SelectQueryBuilder<any, any, any>): Promise<number> {
  const compiled = matching.select(sql`1`.as('one')).compile()
  const result = await db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]))
  return Math.round(result.rows[0]!['QUERY PLAN'][0]!.Plan['Plan Rows'])
}
