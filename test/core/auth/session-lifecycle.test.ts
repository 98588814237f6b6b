import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'

t.test('me answers the signed-in user, and 401 without a session', async (t) => {
  const app = await buildTestApp(t)
  t.equal((await app.inject({ url: '/api/auth/me' })).statusCode, 401)
  const cookie = await login(app, DEMO.staff.email)
  const me = await app.inject({ url: '/api/auth/me', headers: { cookie } })
  t.equal(me.statusCode, 200)
  t.equal(me.json().user.id, DEMO.staff.id)
})

t.test('logout answers 204 and clears the cookie', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.staff.email)
  const out = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } })
  t.equal(out.statusCode, 204)
  const cleared = out.cookies.find((c) => c.name === 'sid')
  t.ok(cleared, 'a Set-Cookie for sid')
  t.ok(cleared!.value === '' || (cleared!.maxAge ?? 1) <= 0 || (cleared!.expires && cleared!.expires.getTime() < Date.now()), 'expired')
})

t.test('a tampered or foreign cookie is no session', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const tampered = cookie.slice(0, -4) + (cookie.endsWith('AAAA') ? 'BBBB' : 'AAAA')
  t.equal((await app.inject({ url: '/api/users', headers: { cookie: tampered } })).statusCode, 401)
  const other = await buildTestApp(t)
  t.equal((await other.inject({ url: '/api/users', headers: { cookie } })).statusCode, 401, 'another app key does not accept it')
})

t.test('the user is looked up on every request: a deleted user is signed out at once, a role change acts at once', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const manager = await login(app, DEMO.manager.email)
  const staff = await login(app, DEMO.staff.email)
  t.equal((await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, headers: { cookie: staff }, payload: { name: 'x' } })).statusCode, 403)
  t.equal((await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, headers: { cookie: admin }, payload: { role: 'manager' } })).statusCode, 200)
  t.equal((await app.inject({ method: 'PATCH', url: `/api/users/u-001`, headers: { cookie: staff }, payload: { name: 'Promoted edit' } })).statusCode, 200, 'the promotion counts without signing in again')
  t.equal((await app.inject({ method: 'DELETE', url: `/api/users/${DEMO.manager.id}`, headers: { cookie: admin } })).statusCode, 204)
  t.equal((await app.inject({ url: '/api/users', headers: { cookie: manager } })).statusCode, 401, 'the deleted user is refused')
})
