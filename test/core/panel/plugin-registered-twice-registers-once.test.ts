import t from 'tap'
import { Panel } from '../../../core/panel/panel.ts'
import { buildAppWith } from '../../helpers/pages.ts'
import { demoPlugin } from './fixtures/demo-plugin.ts'

t.test('the same plugin id twice on one panel: register and boot run once', async (t) => {
  const calls = { register: 0, boot: 0 }
  const panel = Panel.make().id('test').path('test').access('signed-in').plugin(demoPlugin(calls)).plugin(demoPlugin(calls))
  t.same(panel.describe().plugins, ['demo'])
  // A second boot of the same routes would throw FST_ERR_DUPLICATED_ROUTE here.
  await buildAppWith(t, (app) => app.register(panel))
  t.same(calls, { register: 1, boot: 1 })
})

t.test('a panel without access refuses to boot (fails closed)', async (t) => {
  await t.rejects(buildAppWith(t, (app) => app.register(Panel.make().id('open').path('open'))), /has no \.access\(\)/)
})
