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
    // Issue 21: plain words, no internals, and the way back to the places this person may open.
    t.notMatch(response.body, /No page at|GET \//, `${url} shows no method or route internals`)
    t.match(response.body, /Nothing is at this address\./, `${url} says what is wrong in plain words`)
    t.match(response.body, new RegExp(`<code data-error-address>${url}</code>`), `${url} names the address`)
    const links = response.body.slice(response.body.indexOf('data-error-links'))
    for (const way of ['/dashboard', '/app', '/admin']) t.match(links, new RegExp(`href="${way}"`), `${url} offers ${way}`)
  }
  const people = await getPage(app, '/admin/users', cookie)
  t.equal(people.statusCode, 200, 'People has its page')
})

t.test('a script asking for JSON still gets the JSON error', async (t) => {
  const app = await buildTestApp(t)
  const response = await app.inject({ url: '/alerts', headers: { accept: 'application/json' } })
  t.equal(response.statusCode, 404)
  t.equal(response.json().code, 'ERR_NOT_FOUND')
  t.equal(response.json().message, 'No page at GET /alerts', 'the API keeps its technical message')
})
