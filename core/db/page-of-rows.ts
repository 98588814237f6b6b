import { sql, type Expression, type Kysely, type SelectQueryBuilder } from 'kysely'

/**
 * From this many skipped rows on, a page's keys are found first and its rows read after. Measured
 * on PostgreSQL with a million users (page of 10 by lower(name)): 0 skipped, 0.015 ms plain against
 * 0.033 ms deferred; 100 skipped, 0.075 against 0.045; 2,000 skipped, 3.2 against 0.31.
 */
export const DEFERRED_FROM = 100

export interface PageOfRowsOptions {
  /** The table `matching` selects from, read again by `key` for the page's rows. */
  table: string
  /** The sort, most significant first; `key` breaks ties last. */
  order: Expression<unknown>[]
  direction: 'asc' | 'desc'
  limit: number
  offset: number
  key?: string
}

/**
 * The whole rows of one page of `matching`. OFFSET reads every row it skips: whole rows, from the
 * table, when the order's index does not hold them — page 1,000 of a million users read 10,000
 * rows for 10 (6.6x page 1). From DEFERRED_FROM skipped rows on, the page's keys come from the
 * order's index alone (an index-only scan when it holds the order's columns) and only the page's
 * rows are read, by key. The caller may add to the select list (a count) and runs it.
 */
export function pageOfRows(db: Kysely<any>, matching: SelectQueryBuilder<any, any, any>, options: PageOfRowsOptions): SelectQueryBuilder<any, any, any> {
  const { table, order, direction, limit, offset, key = 'id' } = options
  if (offset < DEFERRED_FROM) {
    let page = matching.selectAll()
    for (const by of order) page = page.orderBy(by, direction)
    return page.orderBy(sql.ref(key), direction).limit(limit).offset(offset)
  }
  let keys = matching.select([sql.ref(key).as('__key'), ...order.map((by, i) => sql`${by}`.as(`__by${i}`))])
  for (const by of order) keys = keys.orderBy(by, direction)
  keys = keys.orderBy(sql.ref(key), direction).limit(limit).offset(offset)
  let page = db.selectFrom(keys.as('__page')).innerJoin(`${table} as __row`, `__row.${key}`, '__page.__key').selectAll('__row')
  for (let i = 0; i < order.length; i++) page = page.orderBy(sql.ref(`__page.__by${i}`), direction)
  return page.orderBy(sql.ref('__page.__key'), direction)
}
