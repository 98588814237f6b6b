import t from 'tap'
import { ERR_ACCESS_DENIED } from '../../../core/http/errors.ts'
import { DEMO, login } from '../../helpers/app.ts'
import { buildAppWith, csrfMeta, getPage } from '../../helpers/pages.ts'

t.test('404, 403 and 500 are pages for a browser, JSON for a script, a flash for htmx', async (t) => {
  const app = await buildAppWith(t, (app) => {
    app.get('/boom', async () => { throw new Error('secret internals') })
    app.get('/forbidden', async () => { throw ERR_ACCESS_DENIED() })
  })
  const cookie = await login(app, DEMO.staff.email)

  const notFound = await getPage(app, '/nowhere', cookie)
  t.equal(notFound.statusCode, 404)
  t.match(notFound.body, /<h1>Page not found<\/h1>/)
  t.ok(csrfMeta(notFound.body), 'error pages carry the csrf meta like every page')

  const forbidden = await getPage(app, '/forbidden', cookie)
  t.equal(forbidden.statusCode, 403)
  t.match(forbidden.body, /<h1>You cannot open this page<\/h1>/)

  const crashed = await getPage(app, '/boom', cookie)
  t.equal(crashed.statusCode, 500)
  t.match(crashed.body, /<h1>Something went wrong<\/h1>/)
  t.notMatch(crashed.body, 'secret internals', 'internals stay in the log')

  const json = await app.inject({ url: '/boom', headers: { accept: 'application/json' } })
  t.equal(json.json().code, 'ERR_INTERNAL')

  const htmx = await getPage(app, '/forbidden', cookie, { 'hx-request': 'true' })
  t.equal(htmx.statusCode, 403)
  t.equal(htmx.headers['hx-retarget'], '#flash')
  t.match(htmx.body, /class="flash flash-error" role="alert"/)
  t.notMatch(htmx.body, '<html')
})

t.test('a signed-out navigation to a page that needs a user goes to /login', async (t) => {
  const app = await buildAppWith(t, () => {})
  const response = await getPage(app, '/dashboard')
  t.equal(response.statusCode, 303)
  t.equal(response.headers.location, '/login')
})
