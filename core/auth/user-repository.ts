// The contract between the core and whoever keeps the users: the host's in-memory store by
// default, a database later. The core never sees how they are stored.

export interface UserRecord {
  id: string
  name: string
  email: string
  role: string
  passwordHash: string
  /**
   * Sessions carry the version they were issued at; bumping it (sign-out, a role or password
   * change) refuses every earlier cookie at once, on every instance, with no session store.
   */
  sessionVersion: number
}

export type PublicUser = Pick<UserRecord, 'id' | 'name' | 'email' | 'role'>

export const USER_SORT_FIELDS = ['name', 'email', 'role'] as const
export type UserSortField = (typeof USER_SORT_FIELDS)[number]

export const USER_SEARCH_FIELDS = ['name', 'email'] as const
export type UserSearchField = (typeof USER_SEARCH_FIELDS)[number]

export const isUserSortField = (field: string): field is UserSortField => (USER_SORT_FIELDS as readonly string[]).includes(field)
export const isUserSearchField = (field: string): field is UserSearchField => (USER_SEARCH_FIELDS as readonly string[]).includes(field)

export interface UserListQuery {
  page: number
  perPage: number
  sort?: { field: UserSortField; direction: 'asc' | 'desc' }
  /** Case-insensitive substring of one of `searchFields`. */
  search?: string
  /** The fields `search` looks in; every one of USER_SEARCH_FIELDS when absent, none when empty. */
  searchFields?: readonly UserSearchField[]
  /** Only users with this role (the People screen's role filter). */
  role?: string
}

/** The fields a query searches, each once, in one order (so equal sets make equal cache keys). */
export function searchedFields(query: Pick<UserListQuery, 'searchFields'>): readonly UserSearchField[] {
  const wanted = query.searchFields
  return wanted ? USER_SEARCH_FIELDS.filter((field) => wanted.includes(field)) : USER_SEARCH_FIELDS
}

export interface UserListResult {
  data: UserRecord[]
  total: number
  /** Set when `total` is an estimate (a store that would have to read every match to count it). */
  estimated?: boolean
}

export interface NewUser {
  name: string
  email: string
  role: string
  passwordHash: string
}

export type UserPatch = Partial<NewUser>

export interface UpdateOptions {
  /** Also bump the session version in the same write (role or password changed). */
  revokeSessions?: boolean
  /**
   * Compare-and-set: write only if the stored role is still this one. The rank rules were checked
   * against it; a role changed in between (a concurrent promotion) must not let the write land.
   */
  expectedRole?: string
}

export interface DeleteOptions {
  /** Compare-and-set, as in UpdateOptions. */
  expectedRole?: string
}

export interface UserRepository {
  findById(id: string): Promise<UserRecord | null>
  /**
   * findById answered synchronously, for stores that keep every user in memory: the session
   * layer looks the signed-in user up on every request, and a promise there is a turn of the
   * microtask queue per request. Stores that must wait for I/O leave it out.
   */
  findByIdNow?(id: string): UserRecord | null
  /** E-mail comparison is case-insensitive. */
  findByEmail(email: string): Promise<UserRecord | null>
  list(query: UserListQuery): Promise<UserListResult>
  /** Throws ERR_CONFLICT when the e-mail is taken. */
  create(user: NewUser): Promise<UserRecord>
  /** Null when no such user (or its role is no longer `expectedRole`); throws ERR_CONFLICT when the new e-mail is taken. */
  update(id: string, patch: UserPatch, options?: UpdateOptions): Promise<UserRecord | null>
  /** False when no such user (or its role is no longer `expectedRole`). */
  delete(id: string, options?: DeleteOptions): Promise<boolean>
  /** All or nothing: false, with nothing deleted, when any of them is gone or no longer has its `expectedRole`. */
  deleteMany(targets: Array<{ id: string; expectedRole: string }>): Promise<boolean>
  /** Signs the user out everywhere. */
  revokeSessions(id: string): Promise<void>
}

export function toPublicUser(user: UserRecord): PublicUser {
  return { id: user.id, name: user.name, email: user.email, role: user.role }
}
