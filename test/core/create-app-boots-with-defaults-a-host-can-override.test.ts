// createApp(): one call gives sign-in (JSON and page), sign-out, the throttle and a users store;
// /dashboard leads to the first panel when there is no launcher; each default can be overridden.
import t from 'tap'
import { createApp, Panel } from '../../core/index.ts'
import { csrfMeta, getPage } from '../helpers/pages.ts'

const access = { roles: { clerk: ['invoices:read'] }, adminRoles: ['clerk'] }
const users = [{ name: 'Carla Clerk', email: 'clerk@example.com', role: 'clerk', password: 'password' }]

t.test('the defaults: fixed accounts sign in and out, /dashboard leads to the first panel', async (t) => {
  const app = await createApp({ access, users, panels: [Panel.make().id('office').path('office').access('signed-in')] })
  t.teardown(() => app.close())
  t.equal((await getPage(app, '/login')).statusCode, 200, 'the sign-in page')
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'Clerk@Example.com', password: 'password' } })
  t.equal(login.statusCode, 200)
  const cookie = String(login.headers['set-cookie']).split(';')[0]!
  t.match(String(login.headers['set-cookie']), /^sid=/, 'the default cookie name')
  const dashboard = await getPage(app, '/dashboard', cookie)
  t.equal(dashboard.headers.location, '/office', 'no launcher: the first panel')
  const office = await getPage(app, '/office', cookie)
  t.equal(office.statusCode, 200)
  const out = await app.inject({ method: 'POST', url: '/logout', headers: { cookie, 'x-csrf-token': csrfMeta(office.body) } })
  t.equal(out.statusCode, 303, 'sign-out works with a fixed store')
  t.equal((await getPage(app, '/office', cookie)).statusCode, 303, 'and the old cookie no longer opens the panel')
  const wrong = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'clerk@example.com', password: 'wrong' } })
  t.equal(wrong.statusCode, 401, 'a wrong password is refused')
})

t.test('a host overrides the throttle and the session cookie', async (t) => {
  const app = await createApp({ access, users, throttle: { windowSeconds: 60, maxFailuresPerEmail: 1, maxFailuresPerClient: 10 }, session: { cookieName: 'office' } })
  t.teardown(() => app.close())
  const attempt = (password: string) => app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'clerk@example.com', password } })
  t.equal((await attempt('wrong')).statusCode, 401)
  t.equal((await attempt('password')).statusCode, 429, 'locked after one failure, as configured')
  const other = await createApp({ access, users, session: { cookieName: 'office' } })
  t.teardown(() => other.close())
  const ok = await other.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'clerk@example.com', password: 'password' } })
  t.match(String(ok.headers['set-cookie']), /^office=/, 'the cookie name given')
})
