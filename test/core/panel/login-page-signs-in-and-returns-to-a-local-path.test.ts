import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { buildTestApp } from '../../helpers/app.ts'
import { cookieOf, getPage } from '../../helpers/pages.ts'

async function submitLogin(app: FastifyInstance, fields: Record<string, string>, options: { withToken?: boolean } = {}) {
  const form = await getPage(app, '/login')
  const cookie = cookieOf(form)!
  const token = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!
  const body = new URLSearchParams({ ...(options.withToken === false ? {} : { _csrf: token }), ...fields })
  const response = await app.inject({ method: 'POST', url: '/login', headers: { cookie, accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded' }, payload: body.toString() })
  return Object.assign(response, { sessionCookie: cookieOf(response) ?? cookie })
}

t.test('the form signs in and lands on /dashboard', async (t) => {
  const app = await buildTestApp(t)
  const form = await getPage(app, '/login')
  t.match(form.body, /<label class="field-label" for="login-email">/)
  t.match(form.body, /<label class="field-label" for="login-password">/)
  const response = await submitLogin(app, { email: 'admin@example.com', password: 'password' })
  t.equal(response.statusCode, 303)
  t.equal(response.headers.location, '/dashboard')
  const dashboard = await getPage(app, '/dashboard', cookieOf(response))
  t.equal(dashboard.statusCode, 200)
})

t.test('back to the page that sent the visitor to /login, but only a local one', async (t) => {
  const app = await buildTestApp(t)
  const cases: Array<[string, string]> = [
    ['/admin/users?search=ava&page=2', '/admin/users?search=ava&page=2'],
    ['//evil.example/x', '/dashboard'],
    ['/\\evil.example', '/dashboard'],
    ['https://evil.example/', '/dashboard'],
    ['javascript:alert(1)', '/dashboard'],
  ]
  for (const [next, expected] of cases) {
    const response = await submitLogin(app, { email: 'admin@example.com', password: 'password', next })
    t.equal(response.headers.location, expected, next)
  }
  const page = await getPage(app, `/login?next=${encodeURIComponent('//evil.example')}`)
  t.notMatch(page.body, 'evil.example', 'a foreign next is not even put in the form')
})

t.test('a wrong password re-renders the form with the message and the e-mail kept', async (t) => {
  const app = await buildTestApp(t)
  const response = await submitLogin(app, { email: 'admin@example.com', password: 'nope' })
  t.equal(response.statusCode, 401)
  t.match(response.body, 'Wrong e-mail or password')
  t.match(response.body, 'value="admin@example.com"')
  t.equal((await getPage(app, '/dashboard', response.sessionCookie)).statusCode, 303, 'not signed in')
})

t.test('a login form posted without its token is refused (login CSRF)', async (t) => {
  const app = await buildTestApp(t)
  const response = await submitLogin(app, { email: 'admin@example.com', password: 'password' }, { withToken: false })
  t.equal(response.statusCode, 403)
  t.equal(response.headers.location, undefined)
})

t.test('a cross-site login post is refused before anything else', async (t) => {
  const app = await buildTestApp(t)
  const response = await app.inject({ method: 'POST', url: '/login', headers: { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=a&password=b' })
  t.equal(response.statusCode, 403)
})
