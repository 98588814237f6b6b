import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { getPage } from '../../helpers/pages.ts'

t.test('admin 200, manager 307, staff 307 to /dashboard', async (t) => {
  const app = await buildTestApp(t)
  const admin = await getPage(app, '/admin', await login(app, DEMO.admin.email))
  t.equal(admin.statusCode, 200)
  t.match(admin.body, /class="sidebar"/, 'the panel home has the sidebar layout')
  for (const role of ['manager', 'staff'] as const) {
    const cookie = await login(app, DEMO[role].email)
    for (const url of ['/admin', '/admin/users', '/admin/users/u-001', '/admin/no-such-page']) {
      const response = await getPage(app, url, cookie)
      t.equal(response.statusCode, 307, `${role} ${url}`)
      t.equal(response.headers.location, '/dashboard')
    }
  }
})

t.test('an htmx request gets HX-Redirect instead of a redirect htmx would follow', async (t) => {
  const app = await buildTestApp(t)
  const response = await getPage(app, '/admin/users', await login(app, DEMO.manager.email), { 'hx-request': 'true' })
  t.equal(response.statusCode, 200)
  t.equal(response.headers['hx-redirect'], '/dashboard')
  t.equal(response.headers.location, undefined)
  t.equal(response.body, '')
})

t.test('signed out: to /login, and back afterwards', async (t) => {
  const app = await buildTestApp(t)
  const response = await getPage(app, '/admin/users?search=ava')
  t.equal(response.statusCode, 303)
  t.equal(response.headers.location, `/login?next=${encodeURIComponent('/admin/users?search=ava')}`)
})

t.test('writes from outside a page get the API-style errors', async (t) => {
  const app = await buildTestApp(t)
  const anonymous = await app.inject({ method: 'DELETE', url: '/admin/users/u-001' })
  t.equal(anonymous.statusCode, 401)
  const manager = await app.inject({ method: 'DELETE', url: '/admin/users/u-001', headers: { cookie: await login(app, DEMO.manager.email) } })
  t.equal(manager.statusCode, 403)
  t.equal(manager.json().code, 'ERR_ACCESS_DENIED')
})
