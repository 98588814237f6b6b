import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { csrfFor, htmxWrite } from '../../helpers/pages.ts'

const form = { name: 'Olivia H.', email: 'olivia.hughes@example.com', role: 'staff' }

t.test('a panel write without the session token is refused and changes nothing', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const token = await csrfFor(app, cookie)

  const missing = await htmxWrite(app, 'POST', '/admin/users/u-001', cookie, undefined, form)
  t.equal(missing.statusCode, 403)
  const wrong = await htmxWrite(app, 'POST', '/admin/users/u-001', cookie, token.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')), form)
  t.equal(wrong.statusCode, 403)
  const deleted = await htmxWrite(app, 'DELETE', '/admin/users/u-002', cookie, undefined)
  t.equal(deleted.statusCode, 403)
  // Someone else's token is no better than none.
  const otherToken = await csrfFor(app, await login(app, DEMO.manager.email))
  t.equal((await htmxWrite(app, 'POST', '/admin/users/u-001', cookie, otherToken, form)).statusCode, 403)

  const api = await app.inject({ url: '/api/users/u-001', headers: { cookie } })
  t.equal(api.json().data.name, 'Olivia Hughes', 'nothing was written')
  t.equal((await app.inject({ url: '/api/users/u-002', headers: { cookie } })).statusCode, 200, 'nothing was deleted')

  const ok = await htmxWrite(app, 'POST', '/admin/users/u-001', cookie, token, form)
  t.equal(ok.statusCode, 200, 'with the token from the page meta it works')
})

t.test('the JSON API keeps working for plain clients without a token', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const response = await app.inject({ method: 'PATCH', url: '/api/users/u-001', headers: { cookie }, payload: { name: 'Via API' } })
  t.equal(response.statusCode, 200)
  t.equal(response.json().data.name, 'Via API')
})
