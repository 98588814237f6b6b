import fc from 'fast-check'
import t from 'tap'
import { compilePolicy, type AccessConfigInput } from '../../../core/access/index.ts'

const ROLES = ['r0', 'r1', 'r2', 'r3']
const resource = fc.constantFrom('users', 'orders', 'signatures')
const action = fc.constantFrom('read', 'update', 'delete')
const permission = fc.oneof(fc.tuple(resource, action).map(([r, a]) => `${r}:${a}`), fc.constantFrom('ALERTS', 'INBOX'))
const rule = fc.oneof(permission, resource.map((r) => `${r}:*`), fc.constant('*'))
const ruleList = fc.array(rule, { maxLength: 4 })

// Acyclic by construction: a role may only inherit from roles with a higher index.
const config = fc.record({
  roles: fc.tuple(ruleList, ruleList, ruleList, ruleList),
  parents: fc.tuple(...ROLES.map((_, i) => fc.subarray(ROLES.slice(i + 1)))),
  deny: fc.tuple(ruleList, ruleList, ruleList, ruleList),
}).map(({ roles, parents, deny }): AccessConfigInput => ({
  roles: Object.fromEntries(ROLES.map((r, i) => [r, roles[i]!])),
  hierarchy: Object.fromEntries(ROLES.map((r, i) => [r, parents[i]!])),
  deny: Object.fromEntries(ROLES.map((r, i) => [r, deny[i]!])),
  adminRoles: ['r0'],
}))

const roleName = fc.constantFrom(...ROLES)

t.test('adding a deny never grants more', async (t) => {
  fc.assert(fc.property(config, roleName, rule, permission, (cfg, role, extra, perm) => {
    const before = compilePolicy(cfg).can(role, perm)
    const deny = { ...cfg.deny, [role]: [...(cfg.deny?.[role] ?? []), extra] }
    const after = compilePolicy({ ...cfg, deny }).can(role, perm)
    return !(after && !before)
  }), { numRuns: 500 })
  t.pass('500 random configurations')
})

t.test('a denied permission is never allowed, whatever the grants', async (t) => {
  fc.assert(fc.property(config, roleName, permission, (cfg, role, perm) => {
    const withDeny = { ...cfg, deny: { ...cfg.deny, [role]: [perm] } }
    return compilePolicy(withDeny).can(role, perm) === false
  }), { numRuns: 500 })
  t.pass('500 random configurations')
})

t.test('the hierarchy never passes a deny down: a child role decides as if its parents had no denials', async (t) => {
  fc.assert(fc.property(config, roleName, permission, (cfg, role, perm) => {
    const ownOnly = { ...cfg, deny: { [role]: cfg.deny?.[role] ?? [] } }
    return compilePolicy(cfg).can(role, perm) === compilePolicy(ownOnly).can(role, perm)
  }), { numRuns: 500 })
  t.pass('500 random configurations')
})

t.test('inheriting a role never loses a grant', async (t) => {
  fc.assert(fc.property(config, permission, (cfg, perm) => {
    // r0 additionally inherits r3: anything r0 could do before, it can still do.
    const more = { ...cfg, hierarchy: { ...cfg.hierarchy, r0: [...new Set([...(cfg.hierarchy?.r0 ?? []), 'r3'])] } }
    return !compilePolicy(cfg).can('r0', perm) || compilePolicy(more).can('r0', perm)
  }), { numRuns: 500 })
  t.pass('500 random configurations')
})

t.test('a remembered decision is the decision: a used policy answers like a fresh one, and its answers cannot be changed', async (t) => {
  fc.assert(fc.property(config, fc.array(fc.tuple(roleName, permission), { minLength: 1, maxLength: 30 }), (cfg, questions) => {
    const used = compilePolicy(cfg)
    for (const [role, perm] of questions) used.decide(role, perm)
    return questions.every(([role, perm]) => {
      const again = used.decide(role, perm)
      return Object.isFrozen(again) && JSON.stringify(again) === JSON.stringify(compilePolicy(cfg).decide(role, perm))
    })
  }), { numRuns: 300 })
  // Past the per-role memory, decisions are still made (just not kept).
  const policy = compilePolicy({ roles: { r0: ['users:*'] }, hierarchy: {}, deny: { r0: ['users:purge-9'] }, adminRoles: ['r0'] })
  for (let i = 0; i < 3000; i++) policy.decide('r0', `users:purge-${i}`)
  t.equal(policy.can('r0', 'users:purge-9'), false)
  t.equal(policy.can('r0', 'users:purge-2999'), true)
  t.equal(policy.can('r0', 'orders:read'), false)
})
