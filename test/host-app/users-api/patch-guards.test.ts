import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'

t.test('PATCH guards', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const manager = await login(app, DEMO.manager.email)
  const patch = (cookie: string, id: string, payload: unknown) => app.inject({ method: 'PATCH', url: `/api/users/${id}`, headers: { cookie }, payload: payload as object })

  t.test('only name, email, role, password: any other key is 400 and nothing is written', async (t) => {
    const res = await patch(admin, DEMO.staff.id, { name: 'Changed', isAdmin: true })
    t.equal(res.statusCode, 400)
    t.equal(res.json().code, 'ERR_VALIDATION')
    t.match(res.json().message, /isAdmin/)
    t.equal((await app.inject({ url: `/api/users/${DEMO.staff.id}`, headers: { cookie: admin } })).json().data.name, 'Sam Staff')
  })
  t.test('wrong types and empty bodies are 400', async (t) => {
    for (const payload of [{ name: 5 }, { email: 'not-an-email' }, { role: 'superuser' }, { password: 'short' }, {}, { name: '' }, [], null]) {
      t.equal((await patch(admin, DEMO.staff.id, payload)).statusCode, 400, JSON.stringify(payload))
    }
    const jsonString = await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, headers: { cookie: admin, 'content-type': 'application/json' }, payload: '"x"' })
    t.equal(jsonString.statusCode, 400, 'a JSON string is not an object')
  })
  t.test('nobody changes their own role', async (t) => {
    const res = await patch(admin, DEMO.admin.id, { role: 'staff' })
    t.equal(res.statusCode, 403)
    t.match(res.json().message, /own role/)
    t.equal((await patch(admin, DEMO.admin.id, { name: 'Ada A.' })).statusCode, 200, 'other own fields are fine')
  })
  t.test('nobody gives a role above their own, or edits a user above them', async (t) => {
    t.equal((await patch(manager, DEMO.staff.id, { role: 'admin' })).statusCode, 403)
    t.equal((await patch(manager, DEMO.staff.id, { role: 'manager' })).statusCode, 200, 'up to their own role is fine')
    t.equal((await patch(manager, DEMO.admin.id, { password: 'takeover-attempt' })).statusCode, 403, 'no password reset of an admin')
    const create = await app.inject({ method: 'POST', url: '/api/users', headers: { cookie: manager }, payload: { name: 'A', email: 'a2@example.com', role: 'admin', password: 'long-enough' } })
    t.equal(create.statusCode, 403)
  })
  t.test('unknown id 404, duplicate e-mail 409 (case-insensitive)', async (t) => {
    t.equal((await patch(admin, 'u-nope', { name: 'x' })).json().code, 'ERR_NOT_FOUND')
    t.equal((await patch(admin, '..%2F..%2Fetc', { name: 'x' })).statusCode, 404)
    const dup = await patch(admin, DEMO.staff.id, { email: 'MANAGER@example.com' })
    t.equal(dup.statusCode, 409)
    t.equal(dup.json().code, 'ERR_CONFLICT')
  })
  t.test('nobody deletes their own account', async (t) => {
    const res = await app.inject({ method: 'DELETE', url: `/api/users/${DEMO.admin.id}`, headers: { cookie: admin } })
    t.equal(res.statusCode, 409)
    t.equal((await app.inject({ url: '/api/auth/me', headers: { cookie: admin } })).statusCode, 200)
  })
  t.test('a password change takes effect for sign-in', async (t) => {
    t.equal((await patch(admin, 'u-001', { password: 'a-new-password' })).statusCode, 200)
    const email = (await app.inject({ url: '/api/users/u-001', headers: { cookie: admin } })).json().data.email
    t.equal((await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'password' } })).statusCode, 401)
    t.equal((await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'a-new-password' } })).statusCode, 200)
  })
})
