import { parseInput } from '../http/validate.ts'
import { accessConfigSchema, type AccessConfigInput } from './access-config.ts'
import { isValidPermission, ruleCovers } from './permission.ts'

export interface Decision {
  allowed: boolean
  /** Human-readable: which rule decided, and where it came from. */
  reason: string
  rule?: { kind: 'grant' | 'deny'; rule: string; role: string }
}

interface CompiledRole {
  /** Grants of the role and of every role it inherits from, with the role each came from. */
  grants: Array<{ rule: string; from: string }>
  /** Denials of this role only: the hierarchy passes grants down, never restrictions. */
  deny: string[]
  /** This role and every role it inherits from. */
  covers: Set<string>
  /** Decisions already made for this role, by permission: the policy never changes after boot. */
  decided: Map<string, Decision>
}

/**
 * How many decisions each role remembers. The permissions asked about come from code (a few
 * dozen); the cap only stops a caller that passes request data as a permission from growing it.
 */
const REMEMBERED_DECISIONS = 1024

export interface Policy {
  decide(role: string | null | undefined, permission: string): Decision
  can(role: string | null | undefined, permission: string): boolean
  isAdminRole(role: string | null | undefined): boolean
  /** True when `actor` is `target` or inherits from it (may act on users of that role). */
  outranksOrEquals(actor: string | null | undefined, target: string): boolean
  roles(): string[]
}

export class AccessConfigError extends Error {
  override name = 'AccessConfigError'
}

/** Validates the access configuration and compiles it; a bad config stops the boot with a clear message. */
export function compilePolicy(input: AccessConfigInput): Policy {
  // zod drops an own "__proto__" key instead of rejecting it; a config carrying one is refused.
  for (const section of ['roles', 'hierarchy', 'deny'] as const) {
    const value = (input as Record<string, unknown>)[section]
    if (value && typeof value === 'object' && Object.hasOwn(value, '__proto__')) {
      throw new AccessConfigError(`Invalid access configuration: auth.${section}: "__proto__" is not a valid role name`)
    }
  }
  let config
  try {
    config = parseInput(accessConfigSchema, input, 'auth')
  } catch (error) {
    throw new AccessConfigError(`Invalid access configuration: ${(error as Error).message}`)
  }
  // Maps, not objects: a role called "__proto__" or "constructor" must never find anything.
  const parents = new Map<string, string[]>(Object.entries(config.hierarchy))
  const ownGrants = new Map<string, string[]>(Object.entries(config.roles))
  const ownDeny = new Map<string, string[]>(Object.entries(config.deny))

  const ancestorsOf = (role: string, trail: string[] = []): string[] => {
    if (trail.includes(role)) throw new AccessConfigError(`Invalid access configuration: the role hierarchy has a cycle: ${[...trail, role].join(' -> ')}`)
    const result = [role]
    for (const parent of parents.get(role) ?? []) {
      for (const found of ancestorsOf(parent, [...trail, role])) if (!result.includes(found)) result.push(found)
    }
    return result
  }

  const compiled = new Map<string, CompiledRole>()
  for (const role of ownGrants.keys()) {
    const lineage = ancestorsOf(role)
    compiled.set(role, {
      grants: lineage.flatMap((from) => (ownGrants.get(from) ?? []).map((rule) => ({ rule, from }))),
      deny: ownDeny.get(role) ?? [],
      covers: new Set(lineage),
      decided: new Map(),
    })
  }
  const adminRoles = new Set(config.adminRoles)

  const decideFor = (role: string, entry: CompiledRole, permission: string): Decision => {
    const denied = entry.deny.find((rule) => ruleCovers(rule, permission))
    if (denied !== undefined) {
      return { allowed: false, reason: `denied to ${role} by "${denied}"`, rule: { kind: 'deny', rule: denied, role: role! } }
    }
    const granted = entry.grants.find((g) => ruleCovers(g.rule, permission))
    if (granted) {
      const via = granted.from === role ? '' : ` (inherited from ${granted.from})`
      return { allowed: true, reason: `granted to ${role} by "${granted.rule}"${via}`, rule: { kind: 'grant', rule: granted.rule, role: granted.from } }
    }
    return { allowed: false, reason: `no grant of ${role} covers "${permission}"` }
  }

  // Every page asks the same few questions many times (a table asks two per row): each answer is
  // worked out once per role and shared, frozen, afterwards.
  const decide = (role: string | null | undefined, permission: string): Decision => {
    const entry = typeof role === 'string' ? compiled.get(role) : undefined
    const known = entry?.decided.get(permission)
    if (known) return known
    if (!isValidPermission(permission)) return { allowed: false, reason: `"${permission}" is not a concrete permission` }
    if (!entry) return { allowed: false, reason: role ? `unknown role "${role}"` : 'no role' }
    const decision = freezeDecision(decideFor(role!, entry, permission))
    if (entry.decided.size < REMEMBERED_DECISIONS) entry.decided.set(permission, decision)
    return decision
  }

  return {
    decide,
    can: (role, permission) => decide(role, permission).allowed,
    isAdminRole: (role) => typeof role === 'string' && compiled.has(role) && adminRoles.has(role),
    outranksOrEquals: (actor, target) => typeof actor === 'string' && (compiled.get(actor)?.covers.has(target) ?? false),
    roles: () => [...compiled.keys()],
  }
}

function freezeDecision(decision: Decision): Decision {
  if (decision.rule) Object.freeze(decision.rule)
  return Object.freeze(decision)
}
