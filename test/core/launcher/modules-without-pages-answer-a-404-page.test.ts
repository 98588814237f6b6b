import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { getPage } from '../../helpers/pages.ts'

t.test('every declared module but People answers 404 with an HTML page', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  for (const url of ['/alerts', '/orders', '/reports', '/inbox', '/lookup']) {
    const response = await getPage(app, url, cookie)
    t.equal(response.statusCode, 404, url)
    t.match(response.headers['content-type'], /text\/html/, `${url} is a page`)
    t.match(response.body, /<h1>Page not found<\/h1>/, `${url} says what happened`)
    t.match(response.body, /Sign out/, `${url} keeps the sign-out control`)
  }
  const people = await getPage(app, '/admin/users', cookie)
  t.equal(people.statusCode, 200, 'People has its page')
})

t.test('a script asking for JSON still gets the JSON error', async (t) => {
  const app = await buildTestApp(t)
  const response = await app.inject({ url: '/alerts', headers: { accept: 'application/json' } })
  t.equal(response.statusCode, 404)
  t.equal(response.json().code, 'ERR_NOT_FOUND')
})
