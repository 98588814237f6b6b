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

t.test('the user is looked up on every request: a deleted user is signed out at once', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const manager = await login(app, DEMO.manager.email)
  t.equal((await app.inject({ method: 'DELETE', url: `/api/users/${DEMO.manager.id}`, headers: { cookie: admin } })).statusCode, 204)
  t.equal((await app.inject({ url: '/api/users', headers: { cookie: manager } })).statusCode, 401, 'the deleted user is refused')
})

t.test('a role change revokes the old sessions; signing in again gives the new rights', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  t.equal((await app.inject({ method: 'PATCH', url: '/api/users/u-001', headers: { cookie: staff }, payload: { name: 'x' } })).statusCode, 403)
  t.equal((await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, headers: { cookie: admin }, payload: { role: 'manager' } })).statusCode, 200)
  t.equal((await app.inject({ url: '/api/auth/me', headers: { cookie: staff } })).statusCode, 401, 'the cookie issued under the old role is refused')
  const again = await login(app, DEMO.staff.email)
  t.equal((await app.inject({ method: 'PATCH', url: '/api/users/u-001', headers: { cookie: again }, payload: { name: 'Promoted edit' } })).statusCode, 200)
  t.equal((await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, headers: { cookie: admin }, payload: { name: 'Sam S.' } })).statusCode, 200)
  t.equal((await app.inject({ url: '/api/auth/me', headers: { cookie: again } })).statusCode, 200, 'a name change revokes nothing')
})

t.test('sign-out revokes every copy of the cookie, on every device', async (t) => {
  const app = await buildTestApp(t)
  const laptop = await login(app, DEMO.staff.email)
  const phone = await login(app, DEMO.staff.email)
  const stolenCopy = laptop
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: laptop } })).statusCode, 204)
  t.equal((await app.inject({ url: '/api/auth/me', headers: { cookie: stolenCopy } })).statusCode, 401, 'a copy kept from before sign-out')
  t.equal((await app.inject({ url: '/api/auth/me', headers: { cookie: phone } })).statusCode, 401, 'another device of the same user')
  t.equal((await app.inject({ url: '/api/auth/me', headers: { cookie: await login(app, DEMO.staff.email) } })).statusCode, 200)
})

t.test('a password change revokes the old sessions', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  t.equal((await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, headers: { cookie: admin }, payload: { password: 'brand-new-pass' } })).statusCode, 200)
  t.equal((await app.inject({ url: '/api/auth/me', headers: { cookie: staff } })).statusCode, 401)
})
