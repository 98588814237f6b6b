import { randomUUID } from 'node:crypto'
import { PostgresAdapter, sql, type Kysely, type Selectable } from 'kysely'
import { z } from 'zod'
import type { PublicUser } from '../auth/user-repository.ts'
import { pageOfRows } from '../db/page-of-rows.ts'
import { countUpTo, keptEstimate, pageTotal } from '../db/page-total.ts'
import { ERR_CONFLICT, ERR_NOT_FOUND } from '../http/errors.ts'
import { parseInput } from '../http/validate.ts'
import type { DateRange, FieldKey, FormField, ResourceListQuery, ResourceRecord, ResourceSource } from './define-resource.ts'
import { isTruthy } from './display-value.ts'

/** What a table source is asked to do; `record` is the stored one for edit and delete. */
export type TableAction = 'view' | 'create' | 'edit' | 'delete'

export interface TableSourceOptions<DB, T extends keyof DB & string, R extends ResourceRecord> {
  db: Kysely<DB>
  table: T
  /**
   * Called before every read and write, with the stored record for edit and delete: throw to
   * refuse (assertPermission and the action's rule). The framework checks the resource's
   * declared actions too; a source may check again, it never has to be the only check.
   */
  authorize: (actor: PublicUser | null, action: TableAction, record?: NoInfer<R>) => void
  /** The resource's form fields: create and update accept these keys only, each parsed by its schema. */
  fields: readonly FormField<NoInfer<R>>[]
  /** Row -> record; the row as it is by default (columns named as the record's fields, an `id` key). */
  toRecord?: (row: Selectable<DB[T]>) => R
  /** Id of a created row; a random UUID by default. */
  newId?: () => string
}

/** The day after 'YYYY-MM-DD', same format. */
function nextDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`)
  date.setUTCDate(date.getUTCDate() + 1)
  return date.toISOString().slice(0, 10)
}

const likePattern = (needle: string) => `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string })?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

/**
 * A resource's source over a table, on SQLite or PostgreSQL: search, filters, sort and paging in
 * SQL, so a page reads an index and its page instead of the whole table (give the table an index
 * per sort the resource offers, ending in id: `(customer, id)`; a search is `lower(column) LIKE`,
 * which a trigram index serves on PostgreSQL, core/db/trigram-index.ts). The total is counted up
 * to EXACT_COUNT_LIMIT and estimated above it on PostgreSQL (core/db/page-total.ts), flagged so the
 * table says "about N". Writes accept the resource's form fields only, parsed by their schemas
 * (strict: another key is refused with ERR_VALIDATION, nothing written).
 */
export function tableSource<DB, T extends keyof DB & string, R extends ResourceRecord = Selectable<DB[T]> & ResourceRecord>(options: TableSourceOptions<DB, T, R>): ResourceSource<R> {
  // Kysely's types cannot follow a table chosen by a type parameter: typed at the edges instead.
  const db = options.db as unknown as Kysely<any>
  const table: string = options.table
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  const hostRecord = (options.toRecord ?? ((row: unknown) => row as R)) as (row: unknown) => R
  const toRecord = (row: unknown) => hostRecord(fromStored(row as Record<string, unknown>))
  const newId = options.newId ?? randomUUID
  // Read-only fields are shown, never written: like the form, the source refuses them.
  const shape = Object.fromEntries(options.fields.filter((field) => field.readOnly !== true).map((field) => [field.key, field.schema]))
  // SQLite has no boolean: a checkbox is stored as 1 or 0 and read back as true or false.
  const booleans = options.fields.filter((field) => field.type === 'checkbox' || field.type === 'toggle').map((field) => field.key as string)
  const toStored = (values: Record<string, unknown>) => {
    if (postgres) return values
    for (const key of booleans) if (typeof values[key] === 'boolean') values[key] = values[key] ? 1 : 0
    return values
  }
  const fromStored = (row: Record<string, unknown>) => {
    for (const key of booleans) if (key in row && row[key] !== null) row[key] = isTruthy(row[key])
    return row
  }
  const createSchema = z.object(shape).strict()
  const updateSchema = z.object(shape).partial().strict()
  const writable = (input: Record<string, unknown>) => Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined))

  const load = async (id: string): Promise<R> => {
    const row = await db.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst()
    if (!row) throw ERR_NOT_FOUND(`No record ${id}`)
    return toRecord(row)
  }
  const conflict = (error: unknown) => {
    if (isUniqueViolation(error)) throw ERR_CONFLICT('A record with this value already exists')
    throw error
  }

  return {
    async list(actor, query: ResourceListQuery<R>) {
      options.authorize(actor, 'view')
      let base = db.selectFrom(table)
      const needle = query.search?.trim().toLowerCase()
      if (needle) {
        const escape = postgres ? sql`` : sql` escape '\\'`
        const tests = query.searchFields.map((field) => sql<boolean>`lower(cast(${sql.ref(field)} as text)) like ${likePattern(needle)}${escape}`)
        base = base.where(tests.length > 0 ? sql<boolean>`(${sql.join(tests, sql` or `)})` : sql<boolean>`1 = 0`)
      }
      for (const [field, value] of Object.entries(query.filters) as Array<[FieldKey<R>, string | undefined]>) {
        if (value !== undefined) base = base.where(sql.ref(field), '=', value)
      }
      for (const [field, value] of Object.entries(query.flags ?? {}) as Array<[FieldKey<R>, boolean | undefined]>) {
        if (value !== undefined) base = base.where(sql.ref(field), '=', postgres ? value : value ? 1 : 0)
      }
      // Days compare as text ('YYYY-MM-DD' sorts as it counts); "until" takes the whole last day, a datetime on it too.
      for (const [field, range] of Object.entries(query.ranges ?? {}) as Array<[FieldKey<R>, DateRange | undefined]>) {
        if (range?.from !== undefined) base = base.where(sql`cast(${sql.ref(field)} as text)`, '>=', range.from)
        if (range?.until !== undefined) base = base.where(sql`cast(${sql.ref(field)} as text)`, '<', nextDay(range.until))
      }
      const offset = (query.page - 1) * query.perPage
      const { field, direction } = query.sort
      // A big list's estimate made under the current write stamp: the page then needs no count.
      const kept = await keptEstimate(db, base)
      const rows = await pageOfRows(db, base, { table, order: field === 'id' ? [] : [sql.ref(field)], direction, limit: query.perPage, offset })
        .$if(kept.total === undefined, (q) => q.select(countUpTo(base).as('__total')))
        .execute() as Array<Record<string, unknown>>
      let total: number
      let estimated: boolean
      if (kept.total !== undefined) {
        // Fewer rows than asked for: the last page, which tells the total exactly.
        estimated = !(rows.length > 0 && rows.length < query.perPage)
        total = estimated ? Math.max(kept.total, offset + rows.length) : offset + rows.length
      } else {
        const upTo = rows.length > 0 ? Number(rows[0]!.__total) : query.page > 1 ? Number((await db.selectNoFrom(countUpTo(base).as('n')).executeTakeFirstOrThrow()).n) : 0
        ;({ total, estimated } = await pageTotal(db, base, { upTo, offset, rows: rows.length, perPage: query.perPage }))
        kept.remember({ total, estimated })
      }
      const data = rows.map(({ __total: _, ...row }) => toRecord(row))
      return { data, total, ...(estimated ? { estimated } : {}) }
    },

    async get(actor, id) {
      options.authorize(actor, 'view')
      return load(id)
    },

    async create(actor, input) {
      options.authorize(actor, 'create')
      const values = toStored({ ...writable(parseInput(createSchema, input, 'body')), id: newId() })
      const row = await db.insertInto(table).values(values).returningAll().executeTakeFirstOrThrow().catch(conflict)
      return toRecord(row)
    },

    async update(actor, id, input) {
      options.authorize(actor, 'edit', await load(id))
      const values = toStored(writable(parseInput(updateSchema, input, 'body')))
      if (Object.keys(values).length === 0) return load(id)
      const row = await db.updateTable(table).set(values).where('id', '=', id).returningAll().executeTakeFirst().catch(conflict)
      if (!row) throw ERR_NOT_FOUND(`No record ${id}`)
      return toRecord(row)
    },

    async remove(actor, id) {
      options.authorize(actor, 'delete', await load(id))
      const result = await db.deleteFrom(table).where('id', '=', id).executeTakeFirst()
      if (Number(result.numDeletedRows) === 0) throw ERR_NOT_FOUND(`No record ${id}`)
    },

    async removeMany(actor, ids) {
      const unique = [...new Set(ids)]
      if (unique.length === 0) return
      // All or none: every one is checked first, then one statement deletes them in a transaction
      // that is undone if any was gone meanwhile.
      const rows = await db.selectFrom(table).selectAll().where('id', 'in', unique).execute()
      if (rows.length !== unique.length) throw ERR_NOT_FOUND('Some of these records no longer exist')
      for (const row of rows) options.authorize(actor, 'delete', toRecord(row))
      await db.transaction().execute(async (trx) => {
        const result = await trx.deleteFrom(table).where('id', 'in', unique).executeTakeFirst()
        if (Number(result.numDeletedRows) !== unique.length) throw ERR_NOT_FOUND('Some of these records no longer exist')
      })
    },
  }
}
