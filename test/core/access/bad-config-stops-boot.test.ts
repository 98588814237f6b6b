import t from 'tap'
import { compilePolicy } from '../../../core/access/index.ts'

const base = { roles: { a: ['users:read'], b: ['users:*'] }, adminRoles: ['a'] }

t.test('a cycle in the hierarchy is rejected, naming the cycle', async (t) => {
  t.throws(() => compilePolicy({ ...base, hierarchy: { a: ['b'], b: ['a'] } }), { name: 'AccessConfigError', message: /cycle: a -> b -> a/ })
  t.throws(() => compilePolicy({ ...base, hierarchy: { a: ['a'] } }), /cycle/)
})

t.test('unknown roles anywhere are rejected', async (t) => {
  t.throws(() => compilePolicy({ ...base, hierarchy: { a: ['ghost'] } }), /hierarchy\.a\.0: unknown role "ghost"/)
  t.throws(() => compilePolicy({ ...base, deny: { ghost: ['users:read'] } }), /unknown role "ghost"/)
  t.throws(() => compilePolicy({ ...base, adminRoles: ['ghost'] }), /adminRoles\.0: unknown role "ghost"/)
})

t.test('malformed permissions and role names are rejected', async (t) => {
  for (const bad of ['users', 'users:', ':read', 'Users:read', 'users:read:extra', 'users:**', 'users :read', '']) {
    t.throws(() => compilePolicy({ roles: { a: [bad] }, adminRoles: ['a'] }), { name: 'AccessConfigError' }, `grant ${JSON.stringify(bad)}`)
  }
  const proto = JSON.parse('{"__proto__": ["*"], "a": []}')
  t.throws(() => compilePolicy({ roles: proto, adminRoles: ['a'] }), /role name/)
  t.throws(() => compilePolicy({ roles: { a: [] }, adminRoles: [] }), { name: 'AccessConfigError' }, 'adminRoles may not be empty')
  t.throws(() => compilePolicy({ roles: { a: [] }, adminRoles: ['a'], extra: 1 } as never), /unknown field/)
})

t.test('unknown roles and prototype names never grant anything', async (t) => {
  const policy = compilePolicy({ roles: { a: ['*'] }, adminRoles: ['a'] })
  for (const role of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'ghost', '', null, undefined]) {
    t.equal(policy.can(role as string, 'users:read'), false, `role ${String(role)}`)
    t.equal(policy.isAdminRole(role as string), false)
  }
  t.equal(policy.can('a', 'users:*'), false, 'a wildcard is not a concrete permission to ask about')
})
