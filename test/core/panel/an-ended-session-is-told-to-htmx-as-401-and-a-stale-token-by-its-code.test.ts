// What public/js/session-recovery.js relies on: a signed-out htmx request to a panel is answered
// 401 (with HX-Redirect to the login page as the fallback of a page without the script), and a
// refused CSRF token says ERR_CSRF in X-Error-Code. Page navigations are unchanged.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { getPage, htmxWrite } from '../../helpers/pages.ts'

t.test('signed out: htmx gets 401 + HX-Redirect, a page gets 303 to /login', async (t) => {
  const app = await buildTestApp(t)
  const htmx = await getPage(app, '/admin/users?search=noah', undefined, { 'hx-request': 'true' })
  t.equal(htmx.statusCode, 401)
  t.equal(htmx.headers['hx-redirect'], '/login?next=%2Fadmin%2Fusers%3Fsearch%3Dnoah')
  const post = await htmxWrite(app, 'POST', '/admin/users/u-001', 'session=nonsense', 'x', { name: 'Olivia' })
  t.equal(post.statusCode, 401, 'a write too')
  const page = await getPage(app, '/admin/users')
  t.equal(page.statusCode, 303)
  t.match(page.headers.location, /^\/login\?next=/)
})

t.test('a stale CSRF token: 403 with X-Error-Code ERR_CSRF, nothing written', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const response = await htmxWrite(app, 'POST', '/admin/users/u-001', cookie, 'stale-token', { name: 'Olivia Changed', email: 'olivia.hughes@example.com', role: 'staff' })
  t.equal(response.statusCode, 403)
  t.equal(response.headers['x-error-code'], 'ERR_CSRF')
  t.equal((await app.inject({ url: '/api/users/u-001', headers: { cookie } })).json().data.name, 'Olivia Hughes')
})
