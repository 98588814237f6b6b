// The form of a resource with date, money, toggle, relationship and read-only fields: real inputs
// with labels, values parsed to their types, and each bad value refused next to its field with
// nothing written. A read-only field or a record the actor may not choose is refused too.
import t from 'tap'
import { seedWorld, typedOffice } from './fixtures/typed-invoices.ts'
import { actorOf } from './fixtures/office-actor.ts'

const good: Array<[string, string]> = [['number', '2026-010'], ['amount', '1,250.50'], ['paid', 'true'], ['issuedOn', '2026-04-01'], ['customerId', 'c2']]
const withValue = (form: Array<[string, string]>, key: string, value: string | null) => {
  const rest = form.filter(([k]) => k !== key)
  return value === null ? rest : [...rest, [key, value] as [string, string]]
}

t.test('the create form has real, labelled inputs of each type', async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world)
  const accountant = await actorOf(app, 'accountant')
  const page = await accountant.get('/office/invoices/new')
  t.equal(page.statusCode, 200)
  const html = page.body
  t.match(html, /<label class="field-label" for="field-issuedOn">Issued on/, 'the date has its label')
  t.match(html, /<input class="input" id="field-issuedOn" name="issuedOn" type="date"/, 'a real date input')
  t.match(html, /<input class="toggle" id="field-paid" name="paid" type="checkbox" value="true" role="switch"/, 'the toggle is a switch')
  t.match(html, /<label class="field-label" for="field-paid">Paid<\/label>/)
  t.match(html, /<label class="field-label" for="field-amount">Amount \(EUR\)/, 'money says its currency')
  t.match(html, /id="field-amount" name="amount" type="text" value="" autocomplete="off" inputmode="decimal"/, 'money is typed with a decimal keyboard')
  t.match(html, /<select class="input" id="field-customerId" name="customerId"/, 'the relationship is a select')
  t.match(html, '<option value="c1">Cody &lt;Customer&gt;</option>', 'its options are the related titles, escaped')
  t.notMatch(html, 'Hidden Ltd', 'a customer the view rule hides is not offered')
  t.match(html, /id="field-customerId-search"[^>]*form="field-customerId-none"/, 'its search box belongs to no form')
  t.match(html, /<input class="input" id="field-note" name="note" type="text" value=""[^>]* disabled>/, 'a read-only field is shown disabled')
})

t.test('good values are written as their types', async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world)
  const accountant = await actorOf(app, 'accountant')
  const created = await accountant.send('POST', '/office/invoices', good)
  t.equal(created.statusCode, 303, 'created, then sent to its page')
  t.match(world.invoices.at(-1), { number: '2026-010', amount: 1250.5, paid: true, issuedOn: '2026-04-01', customerId: 'c2' })
  // An unchecked toggle sends nothing: it is false.
  const edited = await accountant.send('POST', '/office/invoices/i2', withValue(withValue(good, 'number', '2026-002'), 'paid', null))
  t.equal(edited.statusCode, 200)
  t.equal(world.invoices.find((i) => i.id === 'i2')?.paid, false, 'the unchecked toggle turned it off')
  t.match(edited.body, /id="field-amount" name="amount" type="text" value="1250.50"/, 'the amount is shown with its decimals')
})

t.test('each bad value is refused next to its field, and nothing is written', async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world)
  const accountant = await actorOf(app, 'accountant')
  const before = structuredClone(world.invoices)
  const cases: Array<[string, string | null, RegExp]> = [
    ['amount', '12.345', /must have at most 2 decimals/],
    ['amount', 'lots', /must be a number like 1234.50/],
    ['amount', '0', /must be at least 0.01/],
    ['issuedOn', '2026-02-30', /must be a date \(YYYY-MM-DD\)/],
    ['issuedOn', null, /Is required/],
    ['paid', 'maybe', /must be on or off/],
    ['customerId', 'c-404', /Choose a customer from the list/],
    ['customerId', 'c-hidden', /Choose a customer from the list/],
    ['customerId', '', /Is required/],
  ]
  for (const [key, value, message] of cases) {
    world.calls.length = 0
    const response = await accountant.send('POST', '/office/invoices', withValue(good, key, value))
    t.equal(response.statusCode, 422, `${key}=${value}: 422`)
    t.match(response.body, new RegExp(`<p class="field-error" id="field-${key}-error">${message.source.replace(/^\//, '')}`, 'i'), `${key}=${value}: said next to the field`)
    t.match(response.body, new RegExp(`id="field-${key}"[^>]*aria-invalid="true"`), `${key}=${value}: the field is marked invalid`)
    t.notOk(world.calls.includes('create'), `${key}=${value}: the source was not asked to create`)
    const update = await accountant.send('POST', '/office/invoices/i1', withValue(withValue(good, 'number', '2026-001'), key, value))
    t.equal(update.statusCode, 422, `${key}=${value}: the edit form refuses it too`)
  }
  t.same(world.invoices, before, 'nothing was written')
})

t.test('a value sent for a read-only field is refused with ERR_VALIDATION, nothing written', async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world)
  const accountant = await actorOf(app, 'accountant')
  const before = structuredClone(world.invoices)
  for (const [method, url] of [['POST', '/office/invoices'], ['POST', '/office/invoices/i1']] as const) {
    const response = await accountant.send(method, url, [...good, ['note', 'forged']], { accept: 'application/json' })
    t.equal(response.statusCode, 400, `${url}: 400`)
    t.match(response.json(), { code: 'ERR_VALIDATION', message: /unknown field\(s\): note/ })
  }
  t.same(world.invoices, before)
})

t.test("the relationship's search answers options for the actor, and only to someone filling in the form", async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world)
  const accountant = await actorOf(app, 'accountant')
  const found = await accountant.get('/office/invoices/fields/customerId/options?search=dana', { 'hx-request': 'true' })
  t.equal(found.statusCode, 200)
  t.match(found.body, '<option value="c2">Dana Doe</option>')
  t.notMatch(found.body, 'Cody', 'narrowed by the search')
  const kept = await accountant.get('/office/invoices/fields/customerId/options?search=dana&customerId=c1', { 'hx-request': 'true' })
  t.match(kept.body, /<option value="c1" selected>Cody &lt;Customer&gt;<\/option>/, 'the chosen one stays chosen')
  const hidden = await accountant.get('/office/invoices/fields/customerId/options?search=hidden', { 'hx-request': 'true' })
  t.notMatch(hidden.body, 'Hidden Ltd', 'the view rule of the related resource holds in the search')
  t.equal((await accountant.get('/office/invoices/fields/note/options')).statusCode, 404, 'a field that is no relationship has no options')
  const reader = await actorOf(app, 'reader')
  const refused = await reader.get('/office/invoices/fields/customerId/options?search=a', { accept: 'application/json' })
  t.equal(refused.statusCode, 403, 'a reader fills in no form')
  t.match(refused.json(), { code: 'ERR_ACCESS_DENIED' })
})
