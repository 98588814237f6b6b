import t from 'tap'
import { Panel } from '../../../core/panel/panel.ts'
import { DEMO, login } from '../../helpers/app.ts'
import { attributeValues, buildAppWith, getPage } from '../../helpers/pages.ts'
import { booksPlugin, booksResource } from './fixtures/books-plugin.ts'

t.test('a resource contributed in register() is mounted like the panel\'s own, behind the gate', async (t) => {
  const app = await buildAppWith(t, (app) => app.register(Panel.make().id('library').path('library').access('admin-roles').plugin(booksPlugin(app.policy, 'users:read'))))
  const admin = await login(app, DEMO.admin.email)
  const list = await getPage(app, '/library/books', admin)
  t.equal(list.statusCode, 200)
  t.same(attributeValues(list.body, 'data-row-id'), ['b1', 'b2'])
  t.match(list.body, '<a class="cell-link" href="/library/books/b1">Dune</a>', 'its record route is named and mounted too')
  t.match((await getPage(app, '/library/books/b2', admin)).body, '<h1 id="record-title">Emma</h1>')
  t.match((await getPage(app, '/library', admin)).body, 'href="/library/books"', 'in the panel\'s navigation')
  t.same(attributeValues((await getPage(app, '/library/books?search=emm', admin, { 'hx-request': 'true' })).body, 'data-row-id'), ['b2'], 'its table partial')

  const staff = await getPage(app, '/library/books', await login(app, DEMO.staff.email))
  t.equal(staff.statusCode, 307, 'the panel\'s gate covers it: staff are not admins')
  const anonymous = await getPage(app, '/library/books')
  t.equal(anonymous.statusCode, 303, 'signed out: to the login page')
  t.match(anonymous.headers.location, /^\/login/)
})

t.test('its navigation and its source follow the permission, as for the panel\'s own resources', async (t) => {
  // users:create: managers have it, staff do not; the panel itself admits every signed-in user.
  const app = await buildAppWith(t, (app) => app.register(Panel.make().id('library').path('library').access('signed-in').plugin(booksPlugin(app.policy, 'users:create'))))
  const manager = await login(app, DEMO.manager.email)
  t.match((await getPage(app, '/library', manager)).body, 'href="/library/books"')
  t.equal((await getPage(app, '/library/books', manager)).statusCode, 200)
  const staff = await login(app, DEMO.staff.email)
  t.notMatch((await getPage(app, '/library', staff)).body, 'href="/library/books"', 'no link for a role decide() refuses')
  t.equal((await getPage(app, '/library/books', staff)).statusCode, 403)
})

t.test('a contributed slug the panel already has fails the boot', async (t) => {
  const { buildApp } = await import('../../../host-app/app.ts')
  const { isolatedEnv } = await import('../../helpers/test-env.ts')
  const { env, cleanup } = await isolatedEnv()
  const app = await buildApp({ env })
  t.teardown(async () => {
    await app.close().catch(() => {})
    await cleanup()
  })
  const panel = Panel.make().id('library').path('library').access('admin-roles')
    .resources([booksResource(app.policy, 'users:read')]).plugin(booksPlugin(app.policy, 'users:read'))
  await t.rejects(async () => { await app.register(panel) }, /already has a resource "books"/)
})
