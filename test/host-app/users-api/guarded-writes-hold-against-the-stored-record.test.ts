import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { compilePolicy } from '../../../core/access/policy.ts'
import type { UserRepository } from '../../../core/auth/user-repository.ts'
import { migrateToLatest } from '../../../core/db/migrate.ts'
import { access } from '../../../config/auth.ts'
import { DatabaseUserRepository } from '../../../host-app/users/database-user-repository.ts'
import { demoUsers } from '../../../host-app/users/demo-users.ts'
import { MemoryUserRepository } from '../../../host-app/users/memory-user-repository.ts'
import { userMigrations } from '../../../host-app/users/migrations/001-users.ts'
import { createUserService } from '../../../host-app/users/user-service.ts'
import { forEachEngine } from '../../core/db/engines.ts'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { holdNextWrite } from '../../helpers/hold-store-write.ts'

async function listening(app: FastifyInstance) {
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as { port: number }
  return (path: string, cookie: string, method: string, body?: unknown) => fetch(`http://127.0.0.1:${port}${path}`, {
    method, headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body),
  })
}

// The manager's write is checked against "staff"; the admin promotes the same user to admin
// before the manager's write reaches the store. The write must be judged against "admin".
const managerWrites: Array<[string, Record<string, string>]> = [
  ['a password reset', { password: 'taken-over-123' }],
  ['a role change that would demote the new admin', { role: 'manager' }],
  ['a rename', { name: 'Renamed By Manager' }],
]

for (const store of ['memory', 'database'] as const) {
  t.test(`${store} store: PATCH by a manager against a concurrent promotion to admin`, async (t) => {
    const app = await buildTestApp(t, { env: { USERS_STORE: store } })
    const request = await listening(app)
    const admin = await login(app, DEMO.admin.email)
    const manager = await login(app, DEMO.manager.email)
    const targets = ['u-001', 'u-004', 'u-005'] // staff
    for (const [index, [what, payload]] of managerWrites.entries()) {
      const id = targets[index]!
      const hold = holdNextWrite(app.users, 'update', id)
      const managerWrite = request(`/api/users/${id}`, manager, 'PATCH', payload)
      await hold.reached
      const promote = await request(`/api/users/${id}`, admin, 'PATCH', { role: 'admin' })
      t.equal(promote.status, 200, `${what}: the admin's promotion lands`)
      hold.release()
      const answer = await managerWrite
      t.equal(answer.status, 403, `${what}: refused, the user is an admin by now`)
      t.equal((await answer.json()).code, 'ERR_ACCESS_DENIED')
      const stored = await app.users.findById(id)
      t.equal(stored!.role, 'admin', `${what}: the promotion stands`)
      t.not(stored!.name, 'Renamed By Manager', `${what}: nothing of the manager's write landed`)
    }
    const email = (await app.users.findById('u-001'))!.email
    t.equal((await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'taken-over-123' } })).statusCode, 401, 'the password was not reset')
  })
}

// Only admins delete and use the People screen in config/auth.ts, and an admin outranks every
// role, so there the rank rule cannot be broken by a race. With a policy that lets managers
// delete, the same service (the People screen's source and the API's) must hold the rule too.
const managersMayDelete = compilePolicy({ ...access, deny: {} })

async function deleteRace(t: Test, users: UserRepository) {
  const service = createUserService(managersMayDelete, users)
  const manager = { id: 'u-manager', name: 'Max Manager', email: DEMO.manager.email, role: 'manager' }
  const admin = { id: 'u-admin', name: 'Ada Admin', email: DEMO.admin.email, role: 'admin' }
  const hold = holdNextWrite(users, 'delete', 'u-007')
  const removal = service.remove(manager, 'u-007')
  await hold.reached
  await service.update(admin, 'u-007', { role: 'admin' })
  hold.release()
  await t.rejects(removal, { code: 'ERR_ACCESS_DENIED' }, 'the delete is judged against the admin it would remove')
  t.equal((await users.findById('u-007'))?.role, 'admin', 'the new admin is still there')

  // The People form's save goes through service.update, the same guarded path as PATCH.
  const holdUpdate = holdNextWrite(users, 'update', 'u-008')
  const formSave = service.update(manager, 'u-008', { name: 'From The Form', email: 'lucas@example.com', role: 'staff' })
  await holdUpdate.reached
  await service.update(admin, 'u-008', { role: 'admin' })
  holdUpdate.release()
  await t.rejects(formSave, { code: 'ERR_ACCESS_DENIED' })
  t.match(await users.findById('u-008'), { role: 'admin', name: 'Lucas Patel' }, 'the form wrote nothing')
}

t.test('memory store: a delete and a form save against a concurrent promotion', async (t) => {
  await deleteRace(t, new MemoryUserRepository(await demoUsers()))
})

forEachEngine(t, 'database store: a delete and a form save against a concurrent promotion', async (database, _engine, t) => {
  await migrateToLatest(database.db, userMigrations)
  const users = new DatabaseUserRepository(database.db)
  await users.seed(await demoUsers())
  await deleteRace(t, users)
})
