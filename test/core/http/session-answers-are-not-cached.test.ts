import t from 'tap'
import { buildAppWith } from '../../helpers/pages.ts'
import { DEMO, login } from '../../helpers/app.ts'
import { cookieOf, getPage } from '../../helpers/pages.ts'

// After sign-out, Back must not show the page that was there: whatever depends on the session is
// never stored by the browser or a shared cache.
t.test('every answer that depends on the session says no-store; assets and explicit caching are kept', async (t) => {
  const app = await buildAppWith(t, (app) => {
    app.get('/api/test/own-caching', async (_request, reply) => reply.header('Cache-Control', 'private, max-age=60').send({ ok: true }))
  })
  const cookie = await login(app, DEMO.admin.email)
  const signedIn: Array<[string, string]> = [
    ['GET', '/dashboard'],
    ['GET', '/admin/users'],
    ['GET', '/admin/users/u-001'],
    ['GET', '/api/users'],
    ['GET', '/api/auth/me'],
    ['GET', '/api/users/u-nope'],
    ['GET', '/no-such-page'],
    ['GET', '/login?next=/admin'],
  ]
  for (const [method, url] of signedIn) {
    const response = await app.inject({ method: method as 'GET', url, headers: { cookie, accept: 'text/html' } })
    t.equal(response.headers['cache-control'], 'no-store', `signed in: ${method} ${url} (${response.statusCode})`)
  }
  const signedOut: Array<[string, string, object?]> = [
    ['GET', '/login'],
    ['GET', '/dashboard'],
    ['GET', '/api/users'],
    ['POST', '/api/auth/login', { email: DEMO.staff.email, password: 'password' }],
  ]
  for (const [method, url, payload] of signedOut) {
    const response = await app.inject({ method: method as 'GET', url, payload: payload as object, headers: { accept: 'text/html' } })
    t.equal(response.headers['cache-control'], 'no-store', `session-dependent: ${method} ${url} (${response.statusCode})`)
  }
  const logout = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } })
  t.equal(logout.headers['cache-control'], 'no-store', 'sign-out')

  const again = await login(app, DEMO.admin.email)
  const asset = await getPage(app, '/assets/css/app.css', again)
  t.equal(asset.statusCode, 200)
  t.not(asset.headers['cache-control'], 'no-store', `static assets keep their caching (${asset.headers['cache-control']})`)
  t.equal(asset.headers['cache-control'], (await getPage(app, '/assets/css/app.css')).headers['cache-control'], 'the same signed in or out')
  const own = await app.inject({ url: '/api/test/own-caching', headers: { cookie: again } })
  t.equal(own.headers['cache-control'], 'private, max-age=60', 'a route that sets its own Cache-Control keeps it')
  const pageImage = await app.inject({ url: '/admin/signature-templates/payslip/design/pages/1', headers: { cookie: again } })
  t.equal(pageImage.statusCode, 200)
  t.equal(pageImage.headers['cache-control'], 'private, no-cache', "the designer's page images keep their revalidation")
  t.ok(cookieOf(await getPage(app, '/login')), 'GET /login sets the pre-sign-in session it depends on')
})
