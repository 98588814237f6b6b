// reply.view(name, data) for hosts used to @fastify/view (issue 37, item 9): a name relative to
// the views root, '.eta' optional, escaped like every view, sent as HTML; a name that is no view
// under the root is a 500 with ERR_VIEW_NOT_FOUND, and nothing outside the root is read.
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { createApp } from '../../../core/index.ts'

const access = { roles: { clerk: ['invoices:read'] }, adminRoles: ['clerk'] }
const users = [{ name: 'Carla Clerk', email: 'clerk@example.com', role: 'clerk', password: 'password' }]

async function appWithRoutes(t: { teardown(fn: () => unknown): void }) {
  const routes = async (app: FastifyInstance) => {
    app.get('/hello', async (request, reply) => reply.view('test/fixtures/views/reply-view-hello', { name: (request.query as { name?: string }).name ?? 'world' }))
    app.get('/hello-eta', async (_request, reply) => reply.view('test/fixtures/views/reply-view-hello.eta', { name: 'Ada' }))
    app.get('/missing', async (request, reply) => reply.view((request.query as { name: string }).name, {}))
  }
  const app = await createApp({ access, users, plugins: [routes] })
  t.teardown(() => app.close())
  return app
}

t.test('renders the named view with the data, escaped, alone, as HTML', async (t) => {
  const app = await appWithRoutes(t)
  const page = await app.inject({ url: '/hello?name=<b>Ada</b>' })
  t.equal(page.statusCode, 200)
  t.equal(page.headers['content-type'], 'text/html; charset=utf-8')
  t.equal(page.body.trim(), '<p class="hello">Hello &lt;b&gt;Ada&lt;/b&gt;</p>', 'the view alone: no layout around it')
  t.equal((await app.inject({ url: '/hello-eta' })).body.trim(), '<p class="hello">Hello Ada</p>', 'the .eta extension may be given')
})

t.test('the view gets the helpers reply.page gives: the signed-in user', async (t) => {
  const app = await appWithRoutes(t)
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'clerk@example.com', password: 'password' } })
  const cookie = String(login.headers['set-cookie']).split(';')[0]!
  t.match((await app.inject({ url: '/hello', headers: { cookie } })).body, 'signed in as clerk@example.com')
})

t.test('a name that is no view under the root: ERR_VIEW_NOT_FOUND, nothing read', async (t) => {
  const app = await appWithRoutes(t)
  for (const name of ['no/such/view', '../../../../etc/passwd', '/etc/passwd', 'package.json']) {
    const answer = await app.inject({ url: `/missing?name=${encodeURIComponent(name)}`, headers: { accept: 'application/json' } })
    t.equal(answer.statusCode, 500, name)
    t.equal(answer.json().code, 'ERR_VIEW_NOT_FOUND', name)
    t.notMatch(answer.body, 'root:', `${name}: no content of another file`)
  }
})
