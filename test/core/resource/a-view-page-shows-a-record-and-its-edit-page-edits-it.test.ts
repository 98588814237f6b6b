// viewPage: the record's page only shows the record (details in words, actions, relation lists),
// for everyone; editing is its own page (GET /:id/edit), checked as the edit action, whose save
// goes back to the view and whose errors stay on the edit page. A resource without viewPage keeps
// the details beside the form.
import t from 'tap'
import { seedWorld, typedOffice } from './fixtures/typed-invoices.ts'
import { actorOf } from './fixtures/office-actor.ts'

const form: Array<[string, string]> = [['number', '2026-001'], ['amount', '1300'], ['issuedOn', '2026-01-15'], ['customerId', 'c1']]

t.test('the view page is read-only for everyone, with an Edit button for whom may edit', async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world, { viewPage: true })
  const accountant = await actorOf(app, 'accountant')
  const view = (await accountant.get('/office/invoices/i1')).body
  t.match(view, '<h1 id="record-title">Invoice 2026-001</h1>')
  t.match(view, '<dd>€1,200.00</dd>', 'details in words')
  t.notMatch(view, 'data-form="edit"', 'no form on the view page')
  t.notMatch(view, 'but not change it', 'and no note that says it cannot be changed')
  t.match(view, '<a class="button button-primary" href="/office/invoices/i1/edit" data-action="edit">Edit</a>')
  t.match(view, 'data-relation="payments"', 'relation lists are on the view page')

  const reader = await actorOf(app, 'reader')
  const readerView = (await reader.get('/office/invoices/i1')).body
  t.notMatch(readerView, 'data-action="edit"', 'no Edit button for a reader')
  const refused = await reader.get('/office/invoices/i1/edit', { accept: 'application/json' })
  t.equal(refused.statusCode, 403, 'the edit page is the edit action')
  t.match(refused.json(), { code: 'ERR_ACCESS_DENIED' })
})

t.test('the edit page edits: errors stay on it, a save goes back to the view', async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world, { viewPage: true })
  const accountant = await actorOf(app, 'accountant')
  const edit = await accountant.get('/office/invoices/i1/edit')
  t.equal(edit.statusCode, 200)
  t.match(edit.body, '<h1 id="record-title">Edit Invoice 2026-001</h1>')
  t.match(edit.body, 'data-form="edit"')
  t.notMatch(edit.body, 'id="details-heading"', 'the edit page is the form')

  const bad = await accountant.send('POST', '/office/invoices/i1', form.map(([k, v]) => [k, k === 'amount' ? 'lots' : v] as [string, string]), { 'hx-request': 'true' })
  t.equal(bad.statusCode, 422)
  t.match(bad.body, '<h1 id="record-title" hx-swap-oob="true">Edit Invoice 2026-001</h1>', 'still the edit page')
  t.match(bad.body, 'Must be a number like 1234.50')

  const saved = await accountant.send('POST', '/office/invoices/i1', form, { 'hx-request': 'true' })
  t.equal(saved.statusCode, 200)
  t.equal(saved.headers['hx-redirect'], '/office/invoices/i1', 'back to the view page')
  t.equal(world.invoices.find((i) => i.id === 'i1')?.amount, 1300)
})

t.test('without viewPage there is no edit page: the record page has the form', async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world)
  const accountant = await actorOf(app, 'accountant')
  t.equal((await accountant.get('/office/invoices/i1/edit', { accept: 'application/json' })).statusCode, 404)
  t.match((await accountant.get('/office/invoices/i1')).body, 'data-form="edit"')
})
