import t from 'tap'
import { compilePolicy } from '../../../core/access/index.ts'
import { access } from '../../../config/auth.ts'

t.test('the configured manager: users:* granted, users:delete denied', async (t) => {
  const policy = compilePolicy(access)
  t.ok(policy.can('manager', 'users:update'))
  t.ok(policy.can('manager', 'users:read'))
  const decision = policy.decide('manager', 'users:delete')
  t.equal(decision.allowed, false)
  t.same(decision.rule, { kind: 'deny', rule: 'users:delete', role: 'manager' })
})

t.test('deny beats a global wildcard grant and a resource wildcard', async (t) => {
  const policy = compilePolicy({ roles: { r: ['*', 'users:*'] }, deny: { r: ['users:delete', 'ALERTS'] }, adminRoles: ['r'] })
  t.equal(policy.can('r', 'users:delete'), false)
  t.equal(policy.can('r', 'ALERTS'), false)
  t.equal(policy.can('r', 'users:read'), true)
  t.equal(policy.can('r', 'orders:read'), true)
})

t.test('a wildcard deny blocks every action of the resource, and nothing else', async (t) => {
  const policy = compilePolicy({ roles: { r: ['*'] }, deny: { r: ['users:*'] }, adminRoles: ['r'] })
  t.equal(policy.can('r', 'users:read'), false)
  t.equal(policy.can('r', 'users-archive:read'), true, 'a prefix of another resource name is not covered')
})
