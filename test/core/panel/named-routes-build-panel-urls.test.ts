import t from 'tap'
import { Panel } from '../../../core/panel/panel.ts'
import type { PanelContext } from '../../../core/panel/panel-plugin.ts'
import { DEMO, login } from '../../helpers/app.ts'
import { buildAppWith, getPage } from '../../helpers/pages.ts'
import { demoPlugin } from './fixtures/demo-plugin.ts'

t.test('url(name, params, query) builds the path of a route named in the panel', async (t) => {
  let captured: PanelContext | undefined
  const spy = { id: 'spy', register: (panel: PanelContext) => { captured = panel }, boot: () => {} }
  const app = await buildAppWith(t, (app) => app.register(Panel.make().id('test').path('test').access('signed-in').plugin(demoPlugin()).plugin(spy)))
  const panel = captured!
  t.equal(panel.url('demo.item', { id: 'x 1/2' }), '/test/demo/items/x%201%2F2', 'params are encoded')
  t.equal(panel.url('demo.item', { id: 7 }, { tab: 'a&b', empty: undefined }), '/test/demo/items/7?tab=a%26b')
  t.equal(panel.url('home'), '/test', 'the panel home is named too')
  t.throws(() => panel.url('demo.nope'), /No route named "demo.nope"/)
  t.throws(() => panel.url('demo.item'), /needs the parameter "id"/)

  const page = await getPage(app, '/test/demo', await login(app, DEMO.staff.email))
  t.match(page.body, 'href="/test/demo/items/a%20b%2Fc?tab=info"', 'views get url() for their own panel')
})

t.test('names are per panel: the same plugin mounts in two panels', async (t) => {
  const panels: PanelContext[] = []
  const spy = () => ({ id: 'spy', register: (panel: PanelContext) => { panels.push(panel) }, boot: () => {} })
  await buildAppWith(t, async (app) => {
    await app.register(Panel.make().id('one').path('one').access('signed-in').plugin(demoPlugin()).plugin(spy()))
    await app.register(Panel.make().id('two').path('two').access('signed-in').plugin(demoPlugin()).plugin(spy()))
  })
  t.same(panels.map((p) => p.url('demo.item', { id: 1 })), ['/one/demo/items/1', '/two/demo/items/1'])
})
