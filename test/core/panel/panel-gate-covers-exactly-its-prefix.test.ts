import t from 'tap'
import { Panel } from '../../../core/panel/panel.ts'
import { DEMO, login } from '../../helpers/app.ts'
import { buildAppWith, getPage } from '../../helpers/pages.ts'
import { demoPlugin } from './fixtures/demo-plugin.ts'

t.test('the gate covers /<path> and everything under it, and nothing else', async (t) => {
  const app = await buildAppWith(t, async (app) => {
    await app.register(Panel.make().id('secret').path('secret').access('admin-roles').plugin(demoPlugin()))
    // Shares the prefix's first letters but is outside the panel.
    app.get('/secretary', async () => 'outside')
  })
  const staff = await login(app, DEMO.staff.email)
  for (const url of ['/secret', '/secret/demo', '/secret/demo/items/1', '/secret/unknown']) {
    t.equal((await getPage(app, url, staff)).statusCode, 307, `${url} is gated`)
  }
  const outside = await getPage(app, '/secretary', staff)
  t.equal(outside.statusCode, 200)
  t.equal(outside.body, 'outside')
  t.equal((await getPage(app, '/dashboard', staff)).statusCode, 200, 'the root is not gated')

  const admin = await login(app, DEMO.admin.email)
  t.equal((await getPage(app, '/secret/demo', admin)).statusCode, 200)
  t.equal((await getPage(app, '/secret/unknown', admin)).statusCode, 404, 'past the gate, unknown paths are a 404 page')
})
