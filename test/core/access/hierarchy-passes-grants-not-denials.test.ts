import t from 'tap'
import { compilePolicy } from '../../../core/access/index.ts'
import { access } from '../../../config/auth.ts'

t.test('admin inherits manager users:* but not manager deny, so admin can delete', async (t) => {
  const policy = compilePolicy(access)
  const decision = policy.decide('admin', 'users:delete')
  t.equal(decision.allowed, true)
  t.same(decision.rule, { kind: 'grant', rule: 'users:*', role: 'manager' }, 'decided by the inherited wildcard')
  t.match(decision.reason, /inherited from manager/)
})

t.test('grants accumulate transitively through the hierarchy', async (t) => {
  const policy = compilePolicy(access)
  t.ok(policy.can('admin', 'ORDERS'), 'admin gets staff ORDERS through manager')
  t.ok(policy.can('manager', 'ORDERS'))
  t.notOk(policy.can('staff', 'PEOPLE'), 'grants never flow upward-to-downward')
  t.notOk(policy.can('staff', 'users:update'))
})

t.test('effective rights of the three roles', async (t) => {
  const policy = compilePolicy(access)
  const codes = ['PEOPLE', 'ALERTS', 'ORDERS', 'REPORTS', 'INBOX', 'SEARCH']
  const visible = (role: string) => codes.filter((code) => policy.can(role, code))
  t.same(visible('admin'), codes)
  t.same(visible('manager'), ['PEOPLE', 'ORDERS', 'REPORTS'])
  t.same(visible('staff'), ['ORDERS'])
  t.same(['read', 'create', 'update', 'delete'].filter((a) => policy.can('staff', `users:${a}`)), ['read'])
  t.same(['read', 'create', 'update', 'delete'].filter((a) => policy.can('manager', `users:${a}`)), ['read', 'create', 'update'])
  t.same(['read', 'create', 'update', 'delete'].filter((a) => policy.can('admin', `users:${a}`)), ['read', 'create', 'update', 'delete'])
  t.ok(policy.isAdminRole('admin'))
  t.notOk(policy.isAdminRole('manager'))
  t.notOk(policy.isAdminRole('staff'))
})

t.test('outranksOrEquals follows the hierarchy', async (t) => {
  const policy = compilePolicy(access)
  t.ok(policy.outranksOrEquals('admin', 'staff'))
  t.ok(policy.outranksOrEquals('manager', 'manager'))
  t.notOk(policy.outranksOrEquals('manager', 'admin'))
  t.notOk(policy.outranksOrEquals('staff', 'manager'))
  t.notOk(policy.outranksOrEquals('__proto__', 'staff'))
})
