import { randomUUID } from 'node:crypto'
import { ERR_CONFLICT, USER_SEARCH_FIELDS, USER_SORT_FIELDS, searchedFields, type DeleteOptions, type NewUser, type UpdateOptions, type UserListQuery, type UserListResult, type UserPatch, type UserRecord, type UserRepository, type UserSearchField, type UserSortField } from '../../core/index.ts'
import type { SessionVersionLedger } from './session-version-ledger.ts'

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true })

interface Stored {
  user: UserRecord
  /** The searchable fields lower-cased once: a search is a substring test, not a toLowerCase() per row per query. */
  lower: Record<UserSearchField, string>
  /** Every searchable field, lower-cased, one per line: the default search as one substring test. */
  both: string
}

/** Whether a user matches a search: the needle in any of the searched fields. */
type Matcher = (stored: Stored) => boolean

function matcher(fields: readonly UserSearchField[], needle: string): Matcher {
  const [first] = fields
  // A search runs this once per row. A needle without a line break cannot match across the one
  // in `both`, so the default search stays a single test, as fast as before fields were chosen.
  if (fields.length === USER_SEARCH_FIELDS.length && !needle.includes('\n')) return (stored) => stored.both.includes(needle)
  if (fields.length === 1 && first) return (stored) => stored.lower[first].includes(needle)
  return (stored) => fields.some((field) => stored.lower[field].includes(needle))
}

// Ties (every admin when sorting by role) are put in name order, then id: a stable, readable order.
const byField = (field: UserSortField) => (a: Stored, b: Stored) =>
  collator.compare(a.user[field], b.user[field]) || (field === 'name' ? 0 : collator.compare(a.user.name, b.user.name)) ||
  (a.user.id < b.user.id ? -1 : a.user.id > b.user.id ? 1 : 0)

/** Index of the first element not less than `item` (insertion point). */
function lowerBound(rows: Stored[], item: Stored, compare: (a: Stored, b: Stored) => number): number {
  let lo = 0
  let hi = rows.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compare(rows[mid]!, item) < 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** How many recent searches keep their match count (each write re-tests every one: cheap). */
const COUNTED_NEEDLES = 256
/** A search with at most this many matches keeps the matches themselves: asked again, it reads no other user. */
const FEW_MATCHES = 1000
/** A first search tests this many users (a few ms on a quiet machine), then lets the event loop run before the next slice. */
const SCAN_SLICE = 5_000

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** What a recent search (needle, fields, role) is known to match, kept true on every write. */
interface Counted {
  matches: Matcher
  count: number
  /** Its matches while they are few (FEW_MATCHES), and their order per sort field once asked. */
  members?: Set<Stored>
  sorted?: Map<UserSortField, Stored[]>
}

/**
 * Users held in memory, as the specification describes: a delete lasts until the process restarts.
 * One sorted index per sort field, and per role and sort field for the role filter, is built on
 * first use and kept sorted on every write (binary search + splice), so a list query never sorts
 * and never looks at a user of another role: a page of a million users is a slice.
 *
 * A search needs the number of matches (the same whatever the sort) and one page of them. What
 * each recent search (needle, fields, role) matches is kept and adjusted on every write, never
 * recomputed: its count, with which a search scans the sorted index only until its page is full,
 * and while they are few its matches themselves, so that asked again it reads no other user. Only
 * the first search for a needle tests everyone, in slices between which the event loop runs.
 */
export class MemoryUserRepository implements UserRepository {
  readonly #byId = new Map<string, Stored>()
  readonly #idByEmail = new Map<string, string>()
  readonly #indexes = new Map<UserSortField, Stored[]>()
  /** One role's users in one field's order (the role filter), built on first use, kept sorted. */
  readonly #roleIndexes = new Map<string, { role: string; field: UserSortField; rows: Stored[] }>()
  /** "role|fields|needle" -> what it matches; in least-recently-used order. */
  readonly #matchCounts = new Map<string, Counted>()
  /** Moves on every write: a search that let the event loop run keeps its count only if none came meanwhile. */
  #writes = 0
  #examined = 0

  /**
   * How many users list() has looked at since the start (the page's own rows included; building
   * an index on first use not): what a list costs here, for tests and metrics to see without a clock.
   */
  get examined(): number {
    return this.#examined
  }

  /** Seeded ids come back after a restart; their session versions must outlive the process. */
  readonly #seededIds = new Set<string>()
  readonly #ledger?: SessionVersionLedger

  /** With a ledger, revocations survive a restart: a seeded user starts at the version it had reached. */
  constructor(seed: UserRecord[] = [], ledger?: SessionVersionLedger) {
    this.#ledger = ledger
    for (const user of seed) {
      this.#seededIds.add(user.id)
      this.#insert({ ...user, sessionVersion: Math.max(user.sessionVersion, ledger?.versionOf(user.id) ?? 0) })
    }
  }

  async #persistVersion(id: string, version: number) {
    if (this.#ledger && this.#seededIds.has(id)) await this.#ledger.record(id, version)
  }

  #index(field: UserSortField): Stored[] {
    let rows = this.#indexes.get(field)
    if (!rows) {
      rows = [...this.#byId.values()].sort(byField(field))
      this.#indexes.set(field, rows)
    }
    return rows
  }

  #roleIndex(role: string, field: UserSortField): Stored[] {
    const key = `${role}\u0000${field}`
    let index = this.#roleIndexes.get(key)
    if (!index) {
      index = { role, field, rows: this.#index(field).filter((stored) => stored.user.role === role) }
      this.#roleIndexes.set(key, index)
    }
    return index.rows
  }

  #indexAdd(stored: Stored) {
    for (const [field, rows] of this.#indexes) rows.splice(lowerBound(rows, stored, byField(field)), 0, stored)
    for (const { role, field, rows } of this.#roleIndexes.values()) if (role === stored.user.role) rows.splice(lowerBound(rows, stored, byField(field)), 0, stored)
  }

  #indexRemove(stored: Stored) {
    const remove = (rows: Stored[], field: UserSortField) => {
      const at = lowerBound(rows, stored, byField(field))
      if (rows[at] === stored) rows.splice(at, 1)
    }
    for (const [field, rows] of this.#indexes) remove(rows, field)
    for (const { role, field, rows } of this.#roleIndexes.values()) if (role === stored.user.role) remove(rows, field)
  }

  #insert(user: UserRecord) {
    const email = user.email.toLowerCase()
    if (this.#idByEmail.has(email)) throw ERR_CONFLICT(`The e-mail ${user.email} is already in use`, { details: { field: 'email' } })
    const lower: Stored['lower'] = { name: user.name.toLowerCase(), email: user.email.toLowerCase() }
    const stored = { user, lower, both: USER_SEARCH_FIELDS.map((field) => lower[field]).join('\n') }
    this.#byId.set(user.id, stored)
    this.#idByEmail.set(email, user.id)
    this.#indexAdd(stored)
    this.#countAdjust(stored, 1)
  }

  #countAdjust(stored: Stored, delta: 1 | -1) {
    this.#writes++
    for (const counted of this.#matchCounts.values()) {
      if (!counted.matches(stored)) continue
      counted.count += delta
      if (!counted.members) continue
      if (delta > 0) counted.members.add(stored)
      else counted.members.delete(stored)
      counted.sorted = undefined
      // Many now: searched by scanning again, with the count it keeps.
      if (counted.members.size > FEW_MATCHES) counted.members = undefined
    }
  }

  #remember(key: string, counted: Counted) {
    this.#matchCounts.delete(key)
    this.#matchCounts.set(key, counted)
    if (this.#matchCounts.size > COUNTED_NEEDLES) this.#matchCounts.delete(this.#matchCounts.keys().next().value!)
  }

  findByIdNow(id: string): UserRecord | null {
    const stored = this.#byId.get(id)
    return stored ? { ...stored.user } : null
  }

  async findById(id: string) {
    return this.findByIdNow(id)
  }

  async findByEmail(email: string) {
    const id = this.#idByEmail.get(email.trim().toLowerCase())
    return id === undefined ? null : this.findById(id)
  }

  async list(query: UserListQuery): Promise<UserListResult> {
    const { field, direction } = query.sort ?? { field: USER_SORT_FIELDS[0], direction: 'asc' }
    const role = query.role
    // The role filter reads that role's own index: no user of another role is looked at.
    const rows = role === undefined ? this.#index(field) : this.#roleIndex(role, field)
    const start = (query.page - 1) * query.perPage
    const end = start + query.perPage
    const at = direction === 'asc' ? (i: number) => rows[i]! : (i: number) => rows[rows.length - 1 - i]!
    const needle = query.search?.trim().toLowerCase()
    const data: UserRecord[] = []
    if (!needle) {
      for (let i = start; i < Math.min(end, rows.length); i++) data.push({ ...at(i).user })
      this.#examined += data.length
      return { data, total: rows.length }
    }
    const fields = searchedFields(query)
    // Field names hold no '|', role names no NUL: the key splits one way only.
    const key = `${role ?? ''}\u0000${fields.join(',')}|${needle}`
    const counted = this.#matchCounts.get(key)
    if (counted) {
      this.#remember(key, counted)
      if (counted.members) {
        // Few matches: their own order, sorted once per field until one of them changes.
        counted.sorted ??= new Map()
        let sorted = counted.sorted.get(field)
        if (!sorted) counted.sorted.set(field, sorted = [...counted.members].sort(byField(field)))
        const pick = direction === 'asc' ? (i: number) => sorted![i]! : (i: number) => sorted![sorted!.length - 1 - i]!
        for (let i = start; i < Math.min(end, sorted.length); i++) data.push({ ...pick(i).user })
        this.#examined += counted.members.size
        return { data, total: counted.count }
      }
      // Stop at the last match the page needs: the count is already known.
      const last = Math.min(end, counted.count)
      if (start >= last) return { data, total: counted.count }
      let i = 0
      for (let seen = 0; seen < last && i < rows.length; i++) {
        const row = at(i)
        if (!counted.matches(row)) continue
        if (seen >= start) data.push({ ...row.user })
        seen++
      }
      this.#examined += i
      return { data, total: counted.count }
    }
    // The first time: every user of the index is tested, a slice at a time, letting the event
    // loop run between slices (a million users took ~0.6 s in one piece). The slices read a copy
    // of the index, so that a write meanwhile cannot make the scan skip or repeat a user.
    const searched = matcher(fields, needle)
    const matches: Matcher = role === undefined ? searched : (stored) => stored.user.role === role && searched(stored)
    const writes = this.#writes
    const scanned = rows.length > SCAN_SLICE ? rows.slice() : rows
    const found: Stored[] = []
    let total = 0
    for (let i = 0; i < scanned.length; i++) {
      if (i > 0 && i % SCAN_SLICE === 0) await nextTurn()
      const row = direction === 'asc' ? scanned[i]! : scanned[scanned.length - 1 - i]!
      if (!searched(row)) continue
      if (total >= start && total < end) data.push({ ...row.user })
      if (total < FEW_MATCHES) found.push(row)
      total++
    }
    this.#examined += scanned.length
    // Written meanwhile: the answer is the index as it was, but the count may no longer be true.
    if (this.#writes === writes) this.#remember(key, { matches, count: total, ...(total <= FEW_MATCHES ? { members: new Set(found) } : {}) })
    return { data, total }
  }

  async create(input: NewUser) {
    const user: UserRecord = { id: randomUUID(), ...input, sessionVersion: 0 }
    this.#insert(user)
    return { ...user }
  }

  async update(id: string, patch: UserPatch, options: UpdateOptions = {}) {
    const current = this.#byId.get(id)
    // Checked and written with no await in between: nothing can change the role meanwhile.
    if (!current || (options.expectedRole !== undefined && current.user.role !== options.expectedRole)) return null
    const sessionVersion = current.user.sessionVersion + (options.revokeSessions ? 1 : 0)
    const next: UserRecord = { ...current.user, ...patch, id, sessionVersion }
    const oldEmail = current.user.email.toLowerCase()
    const newEmail = next.email.toLowerCase()
    if (newEmail !== oldEmail && this.#idByEmail.has(newEmail)) throw ERR_CONFLICT(`The e-mail ${next.email} is already in use`, { details: { field: 'email' } })
    this.#remove(current)
    this.#insert(next)
    if (options.revokeSessions) await this.#persistVersion(id, sessionVersion)
    return { ...next }
  }

  #remove(stored: Stored) {
    this.#byId.delete(stored.user.id)
    this.#idByEmail.delete(stored.user.email.toLowerCase())
    this.#indexRemove(stored)
    this.#countAdjust(stored, -1)
  }

  async revokeSessions(id: string) {
    const stored = this.#byId.get(id)
    if (!stored) return
    stored.user = { ...stored.user, sessionVersion: stored.user.sessionVersion + 1 }
    await this.#persistVersion(id, stored.user.sessionVersion)
  }

  async deleteMany(targets: Array<{ id: string; expectedRole: string }>) {
    // Checked and removed with no await in between, as update() does.
    const stored = targets.map((target) => this.#byId.get(target.id))
    if (stored.some((s, i) => !s || s.user.role !== targets[i]!.expectedRole)) return false
    for (const s of stored) this.#remove(s!)
    for (const s of stored) await this.#persistVersion(s!.user.id, s!.user.sessionVersion + 1)
    return true
  }

  async delete(id: string, options: DeleteOptions = {}) {
    const stored = this.#byId.get(id)
    if (!stored || (options.expectedRole !== undefined && stored.user.role !== options.expectedRole)) return false
    this.#remove(stored)
    // A seeded user comes back on restart: cookies issued before the delete must not come back with it.
    await this.#persistVersion(id, stored.user.sessionVersion + 1)
    return true
  }
}
