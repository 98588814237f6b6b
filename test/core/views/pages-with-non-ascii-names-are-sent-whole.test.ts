import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { csrfMeta } from '../../helpers/pages.ts'

// Pages are sent as UTF-8 bytes, not strings: the Content-Length must count bytes, and a name
// outside Latin-1 must arrive intact. Run as deployed (production: compiled views, cached).
t.test('a page naming a user outside ASCII arrives whole, with a byte-exact Content-Length', async (t) => {
  const app = await buildTestApp(t, { env: { NODE_ENV: 'production' } })
  const cookie = await login(app, DEMO.admin.email)
  const name = 'Zoë Ångström 李小龍 🖋 <script>'
  const renamed = await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.admin.id}`, headers: { cookie }, payload: { name } })
  t.equal(renamed.statusCode, 200, renamed.body)

  for (const url of ['/dashboard', '/admin/users', `/admin/users/${DEMO.admin.id}`]) {
    const page = await app.inject({ url, headers: { cookie } })
    t.equal(page.statusCode, 200, url)
    t.equal(Number(page.headers['content-length']), page.rawPayload.length, `${url}: Content-Length counts bytes`)
    t.equal(page.headers['content-type'], 'text/html; charset=utf-8', url)
    t.ok(page.body.includes('Zoë Ångström 李小龍 🖋 &lt;script&gt;'), `${url}: the name, escaped, intact`)
    t.notOk(page.body.includes('<script>'), `${url}: never raw`)
    t.ok(csrfMeta(page.body), `${url}: a whole page, layout included`)
  }
  const fragment = await app.inject({ url: `/admin/users?search=${encodeURIComponent('李小龍')}`, headers: { cookie, 'hx-request': 'true' } })
  t.equal(Number(fragment.headers['content-length']), fragment.rawPayload.length, 'fragments too')
  t.ok(fragment.body.includes('Zoë Ångström 李小龍 🖋 &lt;script&gt;'), 'the search found the name and the table shows it')
  t.notMatch(fragment.body, /<html/, 'a fragment, no layout')
})
