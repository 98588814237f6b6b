import type { Policy } from '../../core/access/policy.ts'
import type { PublicUser } from '../../core/auth/user-repository.ts'
import { ERR_ACCESS_DENIED, ERR_CONFLICT } from '../../core/http/errors.ts'

// Guards beyond the permission itself, shared by the JSON API and the People screen.

/** Nobody acts on a user whose role is above their own (a manager cannot reset an admin's password). */
export function assertMayManage(policy: Policy, actor: PublicUser, target: PublicUser): void {
  if (!policy.outranksOrEquals(actor.role, target.role)) throw ERR_ACCESS_DENIED(`You may not change a user with the role ${target.role}`)
}

export function assertMayAssignRole(policy: Policy, actor: PublicUser, targetId: string | null, role: string, currentRole?: string): void {
  if (targetId === actor.id && role !== currentRole) throw ERR_ACCESS_DENIED('You cannot change your own role')
  if (!policy.outranksOrEquals(actor.role, role)) throw ERR_ACCESS_DENIED(`You may not give the role ${role}`)
}

export function assertMayDelete(actor: PublicUser, targetId: string): void {
  if (actor.id === targetId) throw ERR_CONFLICT('You cannot delete your own account')
}
