import type { Policy } from '../access/policy.ts'
import { assertPermission } from '../access/assert-permission.ts'
import type { PublicUser } from '../auth/user-repository.ts'
import { requireUser } from '../auth/require-user.ts'
import type { ResourceAction, ResourceRecord, ResourceSource } from './define-resource.ts'

/**
 * The framework's own check of a declared action, made before the source is called: decide()
 * for the action's permission (401 signed out, 403 ERR_ACCESS_DENIED), so a source that checks
 * nothing is still guarded. A source may check again; it never has to be the only check.
 */
export function authorizeAction(policy: Policy, user: PublicUser | null | undefined, action: Pick<ResourceAction<unknown>, 'permission'>): PublicUser {
  const actor = requireUser(user)
  assertPermission(policy, actor, action.permission)
  return actor
}

/**
 * The record an action is about, checked whole: the permission before the source is asked for
 * it, then the action's per-record rule (its own refusal) before anything is done with it.
 */
export async function authorizedRecord<R extends ResourceRecord>(policy: Policy, user: PublicUser | null | undefined, action: ResourceAction<R>, source: ResourceSource<R>, id: string): Promise<{ actor: PublicUser; record: R }> {
  const actor = authorizeAction(policy, user, action)
  const record = await source.get(actor, id)
  action.rule?.assert(actor, record)
  return { actor, record }
}
