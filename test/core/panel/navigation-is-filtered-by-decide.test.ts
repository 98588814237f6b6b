import t from 'tap'
import { Panel } from '../../../core/panel/panel.ts'
import { DEMO, login } from '../../helpers/app.ts'
import { buildAppWith, getPage } from '../../helpers/pages.ts'
import { demoPlugin } from './fixtures/demo-plugin.ts'

t.test('a navigation item with a permission is rendered only for roles decide() allows', async (t) => {
  const app = await buildAppWith(t, (app) => app.register(Panel.make().id('test').path('test').access('signed-in').plugin(demoPlugin())))
  const admin = await getPage(app, '/test/demo', await login(app, DEMO.admin.email))
  t.match(admin.body, 'Demo for admins')
  t.match(admin.body, 'Demo for everyone')
  const staff = await getPage(app, '/test/demo', await login(app, DEMO.staff.email))
  t.notMatch(staff.body, 'Demo for admins', 'signature-templates:read is not granted to staff')
  t.notMatch(staff.body, '/test/demo"', 'not even its link')
  t.match(staff.body, 'Demo for everyone')
})
