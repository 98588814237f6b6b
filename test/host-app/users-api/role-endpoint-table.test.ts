import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'

// The table, row by row. Each write targets a fresh staff-level user so one
// role's success cannot change what the next role sees.
const TABLE = {
  admin: { list: 200, read: 200, create: 201, patch: 200, delete: 204 },
  manager: { list: 200, read: 200, create: 201, patch: 200, delete: 403 },
  staff: { list: 200, read: 200, create: 403, patch: 403, delete: 403 },
} as const

for (const [role, expected] of Object.entries(TABLE)) {
  t.test(`${role}: GET list ${expected.list}, GET one ${expected.read}, POST ${expected.create}, PATCH ${expected.patch}, DELETE ${expected.delete}`, async (t) => {
    const app = await buildTestApp(t)
    const cookie = await login(app, DEMO[role as keyof typeof DEMO].email)
    const admin = await login(app, DEMO.admin.email)
    const victim = (await app.inject({ method: 'POST', url: '/api/users', headers: { cookie: admin }, payload: { name: 'Victim', email: `victim-${role}@example.com`, role: 'staff', password: 'long-enough' } })).json().data

    const list = await app.inject({ url: '/api/users', headers: { cookie } })
    t.equal(list.statusCode, expected.list)
    t.equal((await app.inject({ url: `/api/users/${victim.id}`, headers: { cookie } })).statusCode, expected.read)
    const create = await app.inject({ method: 'POST', url: '/api/users', headers: { cookie }, payload: { name: 'New', email: `new-${role}@example.com`, role: 'staff', password: 'long-enough' } })
    t.equal(create.statusCode, expected.create)
    const patch = await app.inject({ method: 'PATCH', url: `/api/users/${victim.id}`, headers: { cookie }, payload: { name: 'Renamed' } })
    t.equal(patch.statusCode, expected.patch)
    const del = await app.inject({ method: 'DELETE', url: `/api/users/${victim.id}`, headers: { cookie } })
    t.equal(del.statusCode, expected.delete)

    const after = (await app.inject({ url: `/api/users/${victim.id}`, headers: { cookie: admin } }))
    if (expected.delete === 204) t.equal(after.statusCode, 404, 'deleted')
    else {
      t.equal(after.statusCode, 200, 'a refused delete leaves the user')
      t.equal(after.json().data.name, expected.patch === 200 ? 'Renamed' : 'Victim', 'a refused patch writes nothing')
    }
    for (const res of [create, patch, del].filter((r) => r.statusCode === 403)) {
      t.same(Object.keys(res.json()).sort(), ['code', 'error', 'message', 'statusCode'])
      t.equal(res.json().code, 'ERR_ACCESS_DENIED')
    }
  })
}

t.test('without a session every endpoint answers 401 ERR_UNAUTHENTICATED', async (t) => {
  const app = await buildTestApp(t)
  const calls = [
    { method: 'GET', url: '/api/users' },
    { method: 'GET', url: `/api/users/${DEMO.staff.id}` },
    { method: 'POST', url: '/api/users', payload: { name: 'x' } },
    { method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, payload: { name: 'x' } },
    { method: 'DELETE', url: `/api/users/${DEMO.staff.id}` },
  ] as const
  for (const call of calls) {
    const res = await app.inject(call)
    t.equal(res.statusCode, 401, `${call.method} ${call.url}`)
    t.same(res.json(), { statusCode: 401, code: 'ERR_UNAUTHENTICATED', error: 'Unauthorized', message: 'Sign in first' })
  }
})
