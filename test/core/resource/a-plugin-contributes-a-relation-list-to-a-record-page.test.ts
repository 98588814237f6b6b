// A plugin adds a list of related records to another resource's record page through
// panel.relationList(): shown to whom decide() grants its permission, its values read in words
// and escaped, an empty list said as such; a list for a resource the panel lacks stops the boot.
import t from 'tap'
import { Panel } from '../../../core/panel/panel.ts'
import { seedWorld, typedOffice } from './fixtures/typed-invoices.ts'
import { actorOf } from './fixtures/office-actor.ts'
import Fastify from 'fastify'

t.test("the payments plugin's list on an invoice's page", async (t) => {
  const world = seedWorld()
  world.payments.push({ invoiceId: 'i2', paidOn: '<b>2026-03-01</b>', amount: 1 })
  const app = await typedOffice(t, world)
  const reader = await actorOf(app, 'reader')
  const page = (await reader.get('/office/invoices/i2')).body
  t.match(page, /<section class="card relation-list" aria-labelledby="relation-payments" data-relation="payments">\s*<h2 id="relation-payments" class="card-heading">Payments<\/h2>/)
  t.match(page, /<td data-label="Paid on">28 Feb 2026<\/td><td data-label="Amount">€340.50<\/td>/, 'values read in words')
  t.match(page, '&lt;b&gt;2026-03-01&lt;/b&gt;', 'a value that is no date is shown as text, escaped')
  t.notMatch(page, '<b>2026', 'never as markup')
  t.match((await reader.get('/office/invoices/i1')).body, /data-relation="payments">[\s\S]*No payments yet/, 'an invoice without payments says so')

  const clerk = await actorOf(app, 'clerk')
  t.notMatch((await clerk.get('/office/invoices/i2')).body, 'data-relation="payments"', 'hidden from a role without payments:read')
})

t.test('a relation list for a resource the panel does not have stops the boot', async (t) => {
  const app = Fastify()
  app.decorate('policy', { can: () => true } as never)
  const stray = { id: 'stray', register: (panel: { relationList: (slug: string, list: never) => void }) => panel.relationList('nothing', { key: 'x' } as never), boot() {} }
  await t.rejects(async () => { await app.register(Panel.make().id('p').path('p').access('signed-in').plugin(stray as never)); await app.ready() }, /a relation list was contributed to "nothing", which is not a resource of this panel/)
})
