import type { AccessConfigInput, FixedAccount } from '../../core/index.ts'

// Who may do what: accountants every invoice action, clerks read them, customers sign their own
// (the signature plugin shows a customer only the invoices where they are the signatory).
export const access: AccessConfigInput = {
  roles: {
    accountant: ['invoices:*', 'signature-templates:read', 'signatures:read-any'],
    clerk: ['invoices:read'],
    customer: [],
  },
  adminRoles: ['accountant'],
}

/** The demo accounts, password "password": this host manages invoices, not people. */
export const accounts: FixedAccount[] = [
  { id: 'u-accountant', name: 'Ada Accountant', email: 'accountant@example.com', role: 'accountant', password: 'password' },
  { id: 'u-clerk', name: 'Carla Clerk', email: 'clerk@example.com', role: 'clerk', password: 'password' },
  { id: 'u-customer', name: 'Cody Customer', email: 'customer@example.com', role: 'customer', password: 'password' },
]
