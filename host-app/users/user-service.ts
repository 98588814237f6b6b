import { assertPermission, hashPassword, toPublicUser, ERR_CONFLICT, ERR_NOT_FOUND, parseInput, type Policy, type PublicUser, type UserListQuery, type UserPatch, type UserRepository } from '../../core/index.ts'
import { USER_ID, userWriteSchemas } from './user-schemas.ts'
import { userRules } from './user-rules.ts'

/** A guarded write whose target keeps changing under it gives up (409) after this many tries. */
const WRITE_ATTEMPTS = 3

/**
 * Every user operation with its authorization, in one place: the JSON API and the People
 * screen both call these, so a control hidden on the page is refused by the same checks.
 */
export interface UserServiceHooks {
  /**
   * After people were deleted (committed): what the rest of the app must end with them, e.g. the
   * signing sessions still waiting for their signature.
   */
  removed?(ids: readonly string[]): Promise<void>
}

export function createUserService(policy: Policy, users: UserRepository, hooks: UserServiceHooks = {}) {
  const schemas = userWriteSchemas(policy.roles())
  const rules = userRules(policy)
  const { actions, mayAssignRole } = rules

  const load = async (id: string) => {
    const user = USER_ID.test(id) ? await users.findById(id) : null
    if (!user) throw ERR_NOT_FOUND('User not found')
    return user
  }

  return {
    schemas,
    rules,

    async list(actor: PublicUser | null, query: UserListQuery) {
      assertPermission(policy, actor, actions.read.permission)
      const result = await users.list(query)
      return { data: result.data.map(toPublicUser), meta: { page: query.page, perPage: query.perPage, total: result.total, ...(result.estimated ? { totalIsEstimate: true } : {}) } }
    },

    async get(actor: PublicUser | null, id: string) {
      assertPermission(policy, actor, actions.read.permission)
      return toPublicUser(await load(id))
    },

    async create(actor: PublicUser | null, body: unknown) {
      assertPermission(policy, actor, actions.create.permission)
      const input = parseInput(schemas.create, body, 'body')
      mayAssignRole.assert(actor!, null, input.role)
      const { password, ...rest } = input
      return toPublicUser(await users.create({ ...rest, passwordHash: await hashPassword(password) }))
    },

    async update(actor: PublicUser | null, id: string, body: unknown) {
      assertPermission(policy, actor, actions.update.permission)
      const input = parseInput(schemas.patch, body, 'body')
      const { password, ...rest } = input
      const patch: UserPatch = { ...rest }
      // The rules are checked against the record as loaded, and the write lands only if the role
      // they were checked against is still the stored one (compare-and-set); if it moved, check again.
      for (let attempt = 1; ; attempt++) {
        const target = await load(id)
        actions.update.rule.assert(actor!, target)
        if (input.role !== undefined) mayAssignRole.assert(actor!, target, input.role)
        if (password !== undefined) patch.passwordHash ??= await hashPassword(password)
        // A new role or password signs the user out everywhere: old cookies must not keep old rights.
        const revokeSessions = (input.role !== undefined && input.role !== target.role) || password !== undefined
        const updated = await users.update(id, patch, { revokeSessions, expectedRole: target.role })
        if (updated) return toPublicUser(updated)
        if (attempt === WRITE_ATTEMPTS) throw ERR_CONFLICT('The user changed while saving; try again')
      }
    },

    async remove(actor: PublicUser | null, id: string) {
      assertPermission(policy, actor, actions.delete.permission)
      for (let attempt = 1; ; attempt++) {
        const target = await load(id)
        actions.delete.rule.assert(actor!, target)
        if (await users.delete(id, { expectedRole: target.role })) return await hooks.removed?.([id])
        if (attempt === WRITE_ATTEMPTS) throw ERR_CONFLICT('The user changed while deleting; try again')
      }
    },

    /** Every id passes the single delete's permission and rule, then all go at once, or none. */
    async removeMany(actor: PublicUser | null, ids: string[]) {
      assertPermission(policy, actor, actions.delete.permission)
      for (let attempt = 1; ; attempt++) {
        const targets = await Promise.all(ids.map(load))
        for (const target of targets) actions.delete.rule.assert(actor!, target)
        if (await users.deleteMany(targets.map((target) => ({ id: target.id, expectedRole: target.role })))) return await hooks.removed?.(ids)
        if (attempt === WRITE_ATTEMPTS) throw ERR_CONFLICT('People changed while deleting; try again')
      }
    },
  }
}

export type UserService = ReturnType<typeof createUserService>
