import t from 'tap'
import { Panel } from '../../../core/panel/panel.ts'
import { DEMO, login } from '../../helpers/app.ts'
import { buildAppWith, csrfMeta, getPage } from '../../helpers/pages.ts'
import { demoPlugin } from './fixtures/demo-plugin.ts'

t.test('a plugin view rendered with reply.page gets the sidebar, the user, the csrf meta and sign-out', async (t) => {
  const app = await buildAppWith(t, (app) => app.register(Panel.make().id('test').path('test').label('Test panel').access('signed-in').plugin(demoPlugin())))
  const page = await getPage(app, '/test/demo', await login(app, DEMO.staff.email))
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /text\/html/)
  t.match(page.body, /<title>Demo &#183; Test panel<\/title>/)
  t.match(page.body, /<nav id="sidebar" class="sidebar"[^>]*aria-label="Test panel">/)
  t.match(page.body, /<h1>Hello Sam Staff<\/h1>/)
  t.ok(csrfMeta(page.body).length >= 32, 'csrf meta present')
  t.match(page.body, /data-action="sign-out"/)
  t.match(page.body, /<script src="\/assets\/vendor\/htmx\/htmx.min.js" defer><\/script>/)
})
