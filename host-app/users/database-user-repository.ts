import { randomUUID } from 'node:crypto'
import { PostgresAdapter, sql, type Kysely } from 'kysely'
import { USER_SORT_FIELDS, searchedFields, compiledOnce, countUpTo, keptEstimate, pageOfRows, pageTotal, lookupsOfOneTurn, readsOfOneTurn, ERR_CONFLICT, type UserSortField, type DeleteOptions, type NewUser, type UpdateOptions, type UserListQuery, type UserListResult, type UserPatch, type UserRecord, type UserRepository } from '../../core/index.ts'
import { emailContains } from './email-search.ts'

/** Thrown inside a transaction to undo it when a compare-and-set finds a row changed. */
const ROLLBACK = Symbol('rollback')

export interface UsersTable {
  id: string
  name: string
  email: string
  role: string
  password_hash: string
  session_version: number
  created_at: string
}

export interface UserTables {
  users: UsersTable
}

const toRecord = (row: UsersTable): UserRecord => ({
  id: row.id, name: row.name, email: row.email, role: row.role, passwordHash: row.password_hash, sessionVersion: Number(row.session_version),
})

/** SQLite and PostgreSQL name a unique violation differently; both mean the e-mail is taken. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string })?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

const likePattern = (needle: string) => `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * Users in the database (USERS_STORE=database): what several instances need to agree on users.
 * Same contract as the in-memory store; e-mails are stored lower-cased.
 */
export class DatabaseUserRepository implements UserRepository {
  /**
   * On PostgreSQL, the users looked up in one turn of the event loop cost one statement, and equal
   * list pages asked in one turn share one (core/db/reads-of-one-turn.ts: still exact, so a revoked
   * session is refused by the next request). On SQLite a read is answered at once, in microseconds,
   * without a round trip: waiting for the end of the turn would cost more than it saves.
   */
  readonly #lookUp: (id: string) => Promise<UsersTable | undefined>
  readonly #shared?: <T>(key: string, read: () => Promise<T>) => Promise<T>
  readonly #postgres: boolean

  constructor(private readonly db: Kysely<UserTables>) {
    this.#postgres = db.getExecutor().adapter instanceof PostgresAdapter
    if (this.#postgres) {
      // One SQL text whatever the number of ids (an array parameter): prepared once per connection.
      const byIds = (ids: string[]) => db.selectFrom('users').selectAll().where('id', '=', sql<string>`any(${ids}::text[])`).execute()
      this.#lookUp = lookupsOfOneTurn(byIds, (row) => row.id)
      this.#shared = readsOfOneTurn()
    } else {
      // Every signed-in request looks its user up: built and compiled once.
      const byId = compiledOnce(db, (id: string) => db.selectFrom('users').selectAll().where('id', '=', id), 1)
      this.#lookUp = async (id) => (await byId(id))[0]
    }
  }

  async findById(id: string) {
    // PostgreSQL refuses a NUL in text, which would fail every lookup sharing the statement; no
    // stored id has one.
    if (id.includes('\u0000')) return null
    // Shared rows, a record of its own for each caller.
    const row = await this.#lookUp(id)
    return row ? toRecord(row) : null
  }

  async findByEmail(email: string) {
    const row = await this.db.selectFrom('users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst()
    return row ? toRecord(row) : null
  }

  async list(query: UserListQuery): Promise<UserListResult> {
    const { field, direction } = query.sort ?? { field: USER_SORT_FIELDS[0], direction: 'asc' }
    const needle = query.search?.trim().toLowerCase() || undefined
    const read = () => this.#listRows(query, field, direction, needle)
    // The whole query, normalised: equal lists asked together share the statement, and a field
    // added to UserListQuery later (a scope, say) is part of the key without anyone remembering it.
    const { rows, total, estimated } = await (this.#shared
      // Object.assign, not a spread followed by keys: V8's slow path for that (core/views/setup-views.ts viewData).
      ? this.#shared(JSON.stringify(Object.assign({}, query, { sort: { field, direction }, search: needle, searchFields: needle ? searchedFields(query) : undefined })), read)
      : read())
    return { data: rows.map(toRecord), total, ...(estimated ? { estimated } : {}) }
  }

  async #listRows(query: UserListQuery, field: UserSortField, direction: 'asc' | 'desc', needle: string | undefined): Promise<{ rows: UsersTable[]; total: number; estimated: boolean }> {
    let base = this.db.selectFrom('users')
    if (needle) {
      const pattern = likePattern(needle)
      // PostgreSQL's LIKE escapes with a backslash by default (the plain form, as a trigram index's
      // documentation writes it); SQLite's LIKE has no escape character unless told.
      const like = this.#postgres ? sql`` : sql` escape '\\'`
      // An e-mail needle with an '@' is looked up through a btree on PostgreSQL (./email-search.ts):
      // the same rows, without the trigram lists every address shares.
      const tests = searchedFields(query).map((field) => (field === 'email' && this.#postgres ? emailContains(needle) : undefined) ?? sql<boolean>`lower(${sql.ref(field)}) like ${pattern}${like}`)
      base = base.where(tests.length > 0 ? sql<boolean>`(${sql.join(tests, sql` or `)})` : sql<boolean>`1 = 0`)
    }
    if (query.role !== undefined) base = base.where('role', '=', query.role)
    const offset = (query.page - 1) * query.perPage
    // A big list's estimate, made under the current write stamp: the page needs no count then.
    const kept = await keptEstimate(this.db, base)
    // The page and a count that stops at EXACT_COUNT_LIMIT in one statement, each read from an index
    // in the page's order (migrations/002-users-list-indexes.ts): a window count (count(*) over ())
    // read and sorted every matching row, a million for page 1 of a million users.
    const order = []
    // Within one role, ordering by it orders nothing, and would keep the role-first index from serving.
    if (!(field === 'role' && query.role !== undefined)) order.push(sql`lower(${sql.ref(field)})`)
    // Ties (every admin when sorting by role) in name order, as the in-memory store does; e-mails have none.
    if (field === 'role') order.push(sql`lower(name)`)
    const rows = await pageOfRows(this.db, base, { table: 'users', order, direction, limit: query.perPage, offset })
      .$if(kept.total === undefined, (q) => q.select(countUpTo(base).as('total_rows')))
      .execute() as Array<UsersTable & { total_rows?: number | string }>
    if (kept.total !== undefined) {
      // Fewer rows than asked for: this is the last page, and the total is known exactly.
      if (rows.length > 0 && rows.length < query.perPage) return { rows, total: offset + rows.length, estimated: false }
      return { rows, total: Math.max(kept.total, offset + rows.length), estimated: true }
    }
    // A page past the end has no row to carry the count: ask for it on its own.
    const upTo = rows.length > 0 ? Number(rows[0]!.total_rows) : query.page > 1 ? Number((await this.db.selectNoFrom(countUpTo(base).as('n')).executeTakeFirstOrThrow()).n) : 0
    const { total, estimated } = await pageTotal(this.db, base, { upTo, offset, rows: rows.length, perPage: query.perPage })
    kept.remember({ total, estimated })
    return { rows, total, estimated }
  }

  async create(input: NewUser) {
    const row: UsersTable = {
      id: randomUUID(), name: input.name, email: input.email.trim().toLowerCase(), role: input.role,
      password_hash: input.passwordHash, session_version: 0, created_at: new Date().toISOString(),
    }
    try {
      await this.db.insertInto('users').values(row).execute()
    } catch (error) {
      if (isUniqueViolation(error)) throw ERR_CONFLICT(`The e-mail ${input.email} is already in use`, { details: { field: 'email' } })
      throw error
    }
    return toRecord(row)
  }

  async update(id: string, patch: UserPatch, options: UpdateOptions = {}) {
    const set: Record<string, unknown> = {}
    if (patch.name !== undefined) set.name = patch.name
    if (patch.email !== undefined) set.email = patch.email.trim().toLowerCase()
    if (patch.role !== undefined) set.role = patch.role
    if (patch.passwordHash !== undefined) set.password_hash = patch.passwordHash
    // In the same statement: no instance can read the new role with the old session version.
    if (options.revokeSessions) set.session_version = sql`session_version + 1`
    if (Object.keys(set).length === 0) return this.findById(id)
    // The role condition in the same statement: the row is compared and written under one lock.
    let query = this.db.updateTable('users').set(set).where('id', '=', id)
    if (options.expectedRole !== undefined) query = query.where('role', '=', options.expectedRole)
    try {
      const row = await query.returningAll().executeTakeFirst()
      return row ? toRecord(row) : null
    } catch (error) {
      if (isUniqueViolation(error)) throw ERR_CONFLICT(`The e-mail ${patch.email} is already in use`, { details: { field: 'email' } })
      throw error
    }
  }

  async delete(id: string, options: DeleteOptions = {}) {
    let query = this.db.deleteFrom('users').where('id', '=', id)
    if (options.expectedRole !== undefined) query = query.where('role', '=', options.expectedRole)
    const result = await query.executeTakeFirst()
    return Number(result.numDeletedRows) > 0
  }

  async deleteMany(targets: Array<{ id: string; expectedRole: string }>) {
    if (targets.length === 0) return true
    // One statement compares every row's role and deletes under one lock; fewer rows than asked
    // for means one changed or went meanwhile, and the transaction puts the others back.
    return this.db.transaction().execute(async (trx) => {
      const result = await trx.deleteFrom('users')
        .where((eb) => eb.or(targets.map((t) => eb.and([eb('id', '=', t.id), eb('role', '=', t.expectedRole)]))))
        .executeTakeFirst()
      if (Number(result.numDeletedRows) !== targets.length) throw ROLLBACK
      return true
    }).catch((error: unknown) => {
      if (error === ROLLBACK) return false
      throw error
    })
  }

  async revokeSessions(id: string) {
    await this.db.updateTable('users').set({ session_version: sql`session_version + 1` }).where('id', '=', id).execute()
  }

  /**
   * First boot seeds the demo accounts; concurrent first boots insert each one once. Only into an
   * empty table: a deleted account must not come back on the next boot (version 0, so cookies
   * issued before the delete would match it again). Nobody can delete the last admin's own account,
   * so once seeded the table is never empty again.
   */
  async seed(users: UserRecord[]) {
    if (users.length === 0) return
    if (await this.db.selectFrom('users').select('id').limit(1).executeTakeFirst()) return
    const at = new Date().toISOString()
    await this.db.insertInto('users')
      .values(users.map((u) => ({ id: u.id, name: u.name, email: u.email.toLowerCase(), role: u.role, password_hash: u.passwordHash, session_version: u.sessionVersion, created_at: at })))
      .onConflict((oc) => oc.doNothing())
      .execute()
  }
}
