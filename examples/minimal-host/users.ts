import { hashPassword, ERR_ACCESS_DENIED, type AccessConfigInput, type UserRecord, type UserRepository } from '../../core/index.ts'

// Who may do what: clerks see every invoice and the templates; customers sign their own invoices.
export const access: AccessConfigInput = {
  roles: {
    customer: ['invoices:read'],
    clerk: ['invoices:read', 'signature-templates:read', 'signatures:read-any'],
  },
  adminRoles: ['clerk'],
}

/** Two fixed accounts (password "password"): this host manages invoices, not people. */
export async function fixedUsers(): Promise<UserRepository> {
  const passwordHash = await hashPassword('password')
  const users: UserRecord[] = [
    { id: 'u-clerk', name: 'Carla Clerk', email: 'clerk@example.com', role: 'clerk', passwordHash, sessionVersion: 0 },
    { id: 'u-customer', name: 'Cody Customer', email: 'customer@example.com', role: 'customer', passwordHash, sessionVersion: 0 },
  ]
  const readOnly = async (): Promise<never> => { throw ERR_ACCESS_DENIED('The accounts of this host are fixed') }
  return {
    findById: async (id) => users.find((u) => u.id === id) ?? null,
    findByEmail: async (email) => users.find((u) => u.email === email.toLowerCase()) ?? null,
    list: async () => ({ data: users, total: users.length }),
    create: readOnly,
    update: readOnly,
    delete: readOnly,
    deleteMany: readOnly,
    revokeSessions: readOnly,
  }
}
