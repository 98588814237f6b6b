import { ERR_ACCESS_DENIED, ERR_CONFLICT, allRules, defineRule, type Policy, type PublicUser, type ResourceAction } from '../../core/index.ts'

/**
 * Who may do what to which user, written once. The People screen hides a control with a rule's
 * allows(); the user service refuses the write with the same rule's assert(). The actions are
 * the very objects the resource declares, so the permission strings are written once too.
 */
export function userRules(policy: Policy) {
  /** Nobody acts on a user whose role is above their own (a manager cannot reset an admin's password). */
  const mayManage = defineRule(
    (actor: PublicUser, target: PublicUser) => policy.outranksOrEquals(actor.role, target.role),
    (_actor, target) => ERR_ACCESS_DENIED(`You may not change a user with the role ${target.role}`),
  )
  const notOwnAccount = defineRule(
    (actor: PublicUser, target: PublicUser) => actor.id !== target.id,
    () => ERR_CONFLICT('You cannot delete your own account'),
  )
  // `target` is null when the user is being created.
  const keepsOwnRole = defineRule(
    (actor: PublicUser, target: PublicUser | null, role: string) => target?.id !== actor.id || role === target.role,
    () => ERR_ACCESS_DENIED('You cannot change your own role'),
  )
  const mayGiveRole = defineRule(
    (actor: PublicUser, _target: PublicUser | null, role: string) => policy.outranksOrEquals(actor.role, role),
    (_actor, _target, role) => ERR_ACCESS_DENIED(`You may not give the role ${role}`),
  )

  const actions = {
    read: { permission: 'users:read' },
    create: { permission: 'users:create' },
    update: { permission: 'users:update', rule: mayManage },
    // Own account first: deleting yourself is a conflict (409) whatever your rank.
    delete: { permission: 'users:delete', rule: allRules(notOwnAccount, mayManage) },
  } satisfies Record<string, ResourceAction<PublicUser>>

  return {
    actions,
    /** Also what the role select offers: only roles this rule allows. */
    mayAssignRole: allRules(keepsOwnRole, mayGiveRole),
  }
}

export type UserRules = ReturnType<typeof userRules>
