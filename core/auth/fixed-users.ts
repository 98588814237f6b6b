import { ERR_ACCESS_DENIED } from '../http/errors.ts'
import { hashPassword } from './passwords.ts'
import type { UserRecord, UserRepository } from './user-repository.ts'

/** An account of a fixed users store: who signs in, with what role. */
export interface FixedAccount {
  /** Defaults to the e-mail address. */
  id?: string
  name: string
  email: string
  role: string
  password: string
}

/**
 * A users store of a few accounts fixed at boot, the default of createApp() for a host that
 * manages records, not people: sign-in and sign-out work, every change to an account is refused. A host with
 * a People screen passes a store of its own (in memory or in its database).
 */
export async function fixedUsers(accounts: readonly FixedAccount[]): Promise<UserRepository> {
  // scrypt is slow on purpose: one hash per distinct password, not one per account.
  const hashes = new Map<string, Promise<string>>()
  const hashOf = (password: string) => {
    let hash = hashes.get(password)
    if (!hash) hashes.set(password, (hash = hashPassword(password)))
    return hash
  }
  const users: UserRecord[] = await Promise.all(accounts.map(async (account) => ({
    id: account.id ?? account.email.toLowerCase(),
    name: account.name,
    email: account.email.toLowerCase(),
    role: account.role,
    passwordHash: await hashOf(account.password),
    sessionVersion: 0,
  })))
  const byId = new Map(users.map((user) => [user.id, user]))
  const byEmail = new Map(users.map((user) => [user.email, user]))
  if (byId.size !== users.length || byEmail.size !== users.length) throw new Error('fixedUsers: two accounts share an id or an e-mail address')
  const fixed = async (): Promise<never> => { throw ERR_ACCESS_DENIED('The accounts of this application are fixed') }
  return {
    findByIdNow: (id) => byId.get(id) ?? null,
    findById: async (id) => byId.get(id) ?? null,
    findByEmail: async (email) => byEmail.get(email.toLowerCase()) ?? null,
    list: async (query) => ({ data: users.slice((query.page - 1) * query.perPage, query.page * query.perPage), total: users.length }),
    create: fixed,
    update: fixed,
    delete: fixed,
    deleteMany: fixed,
    // Sign-out ends every session of the account; the count lives in memory, like the accounts.
    revokeSessions: async (id) => {
      const user = byId.get(id)
      if (user) user.sessionVersion++
    },
  }
}
