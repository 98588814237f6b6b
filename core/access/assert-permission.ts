import { ERR_ACCESS_DENIED, ERR_UNAUTHENTICATED } from '../http/errors.ts'
import type { Policy } from './policy.ts'

export interface Principal {
  id: string
  role: string
}

/** The one guard route handlers call: 401 without a user, 403 when decide() says no. */
export function assertPermission(policy: Policy, user: Principal | null | undefined, permission: string): void {
  if (!user) throw ERR_UNAUTHENTICATED()
  const decision = policy.decide(user.role, permission)
  if (!decision.allowed) throw ERR_ACCESS_DENIED(`You do not have permission "${permission}"`)
}

/** Gate of the admin panel as a whole: fails closed for any role not in adminRoles. */
export function requireAdmin(policy: Policy, user: Principal | null | undefined): void {
  if (!user) throw ERR_UNAUTHENTICATED()
  if (!policy.isAdminRole(user.role)) throw ERR_ACCESS_DENIED('The admin panel is for administrators only')
}
