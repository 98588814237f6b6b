import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { csrfMeta, getPage } from '../../helpers/pages.ts'

t.test('every signed-in page has a sign-out form with the token, and it ends the session', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  for (const url of ['/dashboard', '/admin', '/admin/users', '/admin/users/u-001', '/app', '/orders']) {
    const page = await getPage(app, url, cookie)
    t.match(page.body, /<form method="post" action="\/logout"[^>]*>\s*<input type="hidden" name="_csrf" value="[^"]+">\s*<button type="submit"[^>]*>Sign out<\/button>/, url)
  }
  const token = csrfMeta((await getPage(app, '/dashboard', cookie)).body)
  const refused = await app.inject({ method: 'POST', url: '/logout', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: '' })
  t.equal(refused.statusCode, 403, 'no token, no sign-out (logout CSRF)')
  const out = await app.inject({ method: 'POST', url: '/logout', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: `_csrf=${encodeURIComponent(token)}` })
  t.equal(out.statusCode, 303)
  t.equal(out.headers.location, '/login')
})
