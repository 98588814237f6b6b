import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { getPage } from '../../helpers/pages.ts'

const NAME = '<script>alert(1)</script>'

t.test('a user named <script>alert(1)</script> shows as text', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const renamed = await app.inject({ method: 'PATCH', url: '/api/users/u-001', headers: { cookie: admin }, payload: { name: NAME } })
  t.equal(renamed.statusCode, 200)
  await app.inject({ method: 'PATCH', url: '/api/users/u-staff', headers: { cookie: admin }, payload: { name: NAME } })
  const staffCookie = await login(app, DEMO.staff.email)
  const pages = [
    await getPage(app, '/admin/users?search=script', admin),
    await getPage(app, '/admin/users?search=script', admin, { 'hx-request': 'true' }),
    await getPage(app, '/admin/users/u-001', admin),
    await getPage(app, '/admin/users/u-001/delete', admin, { 'hx-request': 'true' }),
    await getPage(app, `/admin/users?search=${encodeURIComponent('x"onmouseover="alert(1)')}`, admin),
    await getPage(app, '/dashboard', staffCookie),
    await getPage(app, `/no-such-${encodeURIComponent(NAME)}`, staffCookie),
  ]
  for (const page of pages) {
    t.notMatch(page.body, '<script>alert', 'never raw')
    t.notMatch(page.body, '"onmouseover=', 'attributes cannot be broken out of')
  }
  t.match(pages[0]!.body, '&lt;script&gt;alert(1)&lt;/script&gt;')
  t.match(pages[5]!.body, '&lt;script&gt;alert(1)&lt;/script&gt;', 'in the top bar too')
})
