import { randomUUID } from 'node:crypto'
import { ERR_CONFLICT } from '../../core/http/errors.ts'
import type { NewUser, UserListQuery, UserListResult, UserPatch, UserRecord, UserRepository } from '../../core/auth/user-repository.ts'

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true })

/** Users held in memory, as the specification describes: a delete lasts until the process restarts. */
export class MemoryUserRepository implements UserRepository {
  readonly #byId = new Map<string, UserRecord>()
  readonly #idByEmail = new Map<string, string>()

  constructor(seed: UserRecord[] = []) {
    for (const user of seed) this.#insert({ ...user })
  }

  #insert(user: UserRecord) {
    const email = user.email.toLowerCase()
    if (this.#idByEmail.has(email)) throw ERR_CONFLICT(`The e-mail ${user.email} is already in use`)
    this.#byId.set(user.id, user)
    this.#idByEmail.set(email, user.id)
  }

  async findById(id: string) {
    const user = this.#byId.get(id)
    return user ? { ...user } : null
  }

  async findByEmail(email: string) {
    const id = this.#idByEmail.get(email.trim().toLowerCase())
    return id === undefined ? null : this.findById(id)
  }

  async list(query: UserListQuery): Promise<UserListResult> {
    let rows = [...this.#byId.values()]
    const needle = query.search?.trim().toLowerCase()
    if (needle) rows = rows.filter((u) => u.name.toLowerCase().includes(needle) || u.email.toLowerCase().includes(needle))
    const { field, direction } = query.sort ?? { field: 'name', direction: 'asc' }
    const sign = direction === 'desc' ? -1 : 1
    // Ties broken by id so pages never overlap or skip a row.
    rows.sort((a, b) => sign * collator.compare(a[field], b[field]) || collator.compare(a.id, b.id))
    const start = (query.page - 1) * query.perPage
    return { data: rows.slice(start, start + query.perPage).map((u) => ({ ...u })), total: rows.length }
  }

  async create(input: NewUser) {
    const user: UserRecord = { id: randomUUID(), ...input }
    this.#insert(user)
    return { ...user }
  }

  async update(id: string, patch: UserPatch) {
    const current = this.#byId.get(id)
    if (!current) return null
    const next = { ...current, ...patch, id }
    const oldEmail = current.email.toLowerCase()
    const newEmail = next.email.toLowerCase()
    if (newEmail !== oldEmail) {
      if (this.#idByEmail.has(newEmail)) throw ERR_CONFLICT(`The e-mail ${next.email} is already in use`)
      this.#idByEmail.delete(oldEmail)
      this.#idByEmail.set(newEmail, id)
    }
    this.#byId.set(id, next)
    return { ...next }
  }

  async delete(id: string) {
    const user = this.#byId.get(id)
    if (!user) return false
    this.#byId.delete(id)
    this.#idByEmail.delete(user.email.toLowerCase())
    return true
  }
}
