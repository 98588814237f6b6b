// A record action and a bulk action ("Mark as paid") over a source that checks nothing: the
// framework checks the action's permission and its rule for every record before handle() runs;
// a role without the permission gets 403 with a stable code and nothing changes; an undeclared
// action has no route. The buttons ask in the app's dialog first (data-confirm-*).
import t from 'tap'
import { seedWorld, typedOffice } from './fixtures/typed-invoices.ts'
import { actorOf } from './fixtures/office-actor.ts'

const JSON_ACCEPT = { accept: 'application/json' }

t.test('a role without the permission is refused both actions, and nothing reaches the source', async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world)
  const clerk = await actorOf(app, 'clerk')
  const before = structuredClone(world.invoices)
  world.calls.length = 0
  const one = await clerk.send('POST', '/office/invoices/i1/actions/mark-paid', undefined, JSON_ACCEPT)
  t.equal(one.statusCode, 403)
  t.match(one.json(), { statusCode: 403, code: 'ERR_ACCESS_DENIED' })
  const many = await clerk.send('POST', '/office/invoices/bulk/mark-paid', [['ids', 'i1'], ['ids', 'i3']], JSON_ACCEPT)
  t.equal(many.statusCode, 403)
  t.match(many.json(), { code: 'ERR_ACCESS_DENIED' })
  t.same(world.invoices, before, 'nothing changed')
  t.same(world.calls, [], 'the source was not even asked for the records')

  const list = (await clerk.get('/office/invoices')).body
  t.notMatch(list, 'data-action="mark-paid"', 'no row button for the clerk')
  t.notMatch(list, 'data-bulk-action', 'no bulk button either')
  t.notMatch((await clerk.get('/office/invoices/i1')).body, 'data-action="mark-paid"', 'nor on the record page')
})

t.test("the action's rule refuses a record it does not allow; a bulk request with one such record is refused whole", async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world)
  const accountant = await actorOf(app, 'accountant')
  const before = structuredClone(world.invoices)
  const paidAgain = await accountant.send('POST', '/office/invoices/i2/actions/mark-paid', undefined, JSON_ACCEPT)
  t.equal(paidAgain.statusCode, 403, 'i2 is paid already')
  t.match(paidAgain.json(), { code: 'ERR_ACCESS_DENIED', message: 'This invoice is paid already' })
  const mixed = await accountant.send('POST', '/office/invoices/bulk/mark-paid', [['ids', 'i1'], ['ids', 'i2']], JSON_ACCEPT)
  t.equal(mixed.statusCode, 403)
  const unknown = await accountant.send('POST', '/office/invoices/bulk/mark-paid', [['ids', 'i1'], ['ids', 'nope']], JSON_ACCEPT)
  t.equal(unknown.statusCode, 404, 'an unknown id refuses the request')
  const none = await accountant.send('POST', '/office/invoices/bulk/mark-paid', [], JSON_ACCEPT)
  t.equal(none.statusCode, 400)
  t.match(none.json(), { code: 'ERR_VALIDATION' })
  t.same(world.invoices, before, 'nothing changed')
  t.notOk(world.calls.some((c) => c.startsWith('pay')), 'handle() never ran')
})

t.test('where permission and rule allow, the actions do their work and say so', async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world)
  const accountant = await actorOf(app, 'accountant')
  const list = (await accountant.get('/office/invoices')).body
  t.match(list, /hx-post="\/office\/invoices\/i1\/actions\/mark-paid"[^>]*data-confirm-title="Mark this invoice as paid\?" data-confirm-message="Its customer is not asked again." data-confirm-label="Mark as paid"/, 'the row button asks first')
  t.notMatch(list, 'invoices/i2/actions/mark-paid', 'no button on a paid invoice (the rule)')
  t.match(list, /hx-post="\/office\/invoices\/bulk\/mark-paid"[^>]*data-confirm-title="Mark the chosen invoices as paid\?"[^>]*data-bulk-action="mark-paid" disabled/, 'the bulk button asks first')

  const one = await accountant.send('POST', '/office/invoices/i1/actions/mark-paid', undefined, { 'hx-request': 'true' })
  t.equal(one.statusCode, 200)
  t.match(one.body, 'Invoice 2026-001 is paid.')
  t.match(JSON.parse(String(one.headers['hx-trigger'])), { 'resource-changed': { slug: 'invoices' }, 'record-changed': { slug: 'invoices' } }, 'the table and the record page refresh')
  t.equal(world.invoices.find((i) => i.id === 'i1')?.paid, true)

  world.invoices.push({ id: 'i9', number: '2026-009', amount: 5, paid: false, issuedOn: '2026-05-01', customerId: 'c1', note: '' })
  const many = await accountant.send('POST', '/office/invoices/bulk/mark-paid', [['ids', 'i3'], ['ids', 'i9']], { 'hx-request': 'true' })
  t.equal(many.statusCode, 200)
  t.match(many.body, 'Mark as paid: 2 invoices.')
  t.ok(world.invoices.every((i) => i.paid), 'all paid')
})

t.test('an action that is not declared has no route', async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world)
  const accountant = await actorOf(app, 'accountant')
  t.equal((await accountant.send('POST', '/office/invoices/i1/actions/refund', undefined, JSON_ACCEPT)).statusCode, 404)
  t.equal((await accountant.send('POST', '/office/invoices/bulk/refund', [['ids', 'i1']], JSON_ACCEPT)).statusCode, 404)
  t.equal((await accountant.send('POST', '/office/customers/c1/actions/mark-paid', undefined, JSON_ACCEPT)).statusCode, 404, 'another resource does not get it')
})
