import { requireUser } from '../auth/require-user.ts'
import { ERR_ACCESS_DENIED } from '../http/errors.ts'
import type { Policy } from './policy.ts'

export interface Principal {
  id: string
  role: string
}

/** The one guard route handlers call: 401 without a user, 403 when decide() says no. */
export function assertPermission(policy: Policy, user: Principal | null | undefined, permission: string): void {
  const decision = policy.decide(requireUser(user).role, permission)
  if (!decision.allowed) throw ERR_ACCESS_DENIED(`You do not have permission "${permission}"`)
}

/** Gate of the admin panel as a whole: fails closed for any role not in adminRoles. */
export function requireAdmin(policy: Policy, user: Principal | null | undefined): void {
  if (!policy.isAdminRole(requireUser(user).role)) throw ERR_ACCESS_DENIED('The admin panel is for administrators only')
}
