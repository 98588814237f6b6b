// A ternary filter (Yes / No / All) and a date range reach the source parsed (flags, ranges); a
// stale or mistyped value in a shared link falls back to "All" instead of an error. Money, date
// and boolean columns read in words.
import t from 'tap'
import { seedWorld, typedOffice } from './fixtures/typed-invoices.ts'
import { actorOf } from './fixtures/office-actor.ts'

const rowIds = (html: string) => [...html.matchAll(/data-row-id="([^"]+)"/g)].map((m) => m[1])

t.test('the ternary filter and the date range narrow the list', async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world)
  const reader = await actorOf(app, 'reader')
  const all = await reader.get('/office/invoices')
  t.same(rowIds(all.body), ['i1', 'i2', 'i3'])
  t.same(world.queries.at(-1), { ...world.queries.at(-1), flags: {}, ranges: {} }, 'nothing chosen: no flags, no ranges')

  t.same(rowIds((await reader.get('/office/invoices?paid=true')).body), ['i2'], 'paid: Yes')
  t.same(world.queries.at(-1)?.flags, { paid: true })
  t.same(rowIds((await reader.get('/office/invoices?paid=false')).body), ['i1', 'i3'], 'paid: No')
  t.same(world.queries.at(-1)?.flags, { paid: false })

  t.same(rowIds((await reader.get('/office/invoices?issuedOnFrom=2026-02-01&issuedOnUntil=2026-03-31')).body), ['i2', 'i3'], 'both bounds, inclusive')
  t.same(world.queries.at(-1)?.ranges, { issuedOn: { from: '2026-02-01', until: '2026-03-31' } })
  t.same(rowIds((await reader.get('/office/invoices?issuedOnUntil=2026-01-31')).body), ['i1'], 'one bound')
  t.same(world.queries.at(-1)?.ranges, { issuedOn: { until: '2026-01-31' } })
  t.same(rowIds((await reader.get('/office/invoices?paid=false&issuedOnFrom=2026-03-01')).body), ['i3'], 'filters combine')

  // A link with a bad value still opens the list, as if that filter were at "All".
  const stale = await reader.get('/office/invoices?paid=maybe&issuedOnFrom=2026-02-30&issuedOnUntil=yesterday')
  t.equal(stale.statusCode, 200)
  t.same(rowIds(stale.body), ['i1', 'i2', 'i3'])
  t.same(world.queries.at(-1), { ...world.queries.at(-1), flags: {}, ranges: {} })
})

t.test('the toolbar has labelled controls that keep the chosen values, and links carry them', async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world)
  const reader = await actorOf(app, 'reader')
  const html = (await reader.get('/office/invoices?paid=true&issuedOnFrom=2026-01-01')).body
  t.match(html, /<label class="toolbar-label" for="filter-paid">Paid<\/label>/)
  t.match(html, /<option value="true" selected>Yes<\/option>/, 'the chosen flag')
  t.match(html, /<label class="sr-only" for="filter-issuedOnFrom">Issued from<\/label>/, 'each date input has its label')
  t.match(html, /<input class="input input-compact" type="date" id="filter-issuedOnFrom" name="issuedOnFrom" value="2026-01-01">/)
  t.match(html, /<input class="input input-compact" type="date" id="filter-issuedOnUntil" name="issuedOnUntil" value="">/)
  t.match(html, /role="group" aria-labelledby="filter-issuedOn-label"/, 'the two dates are one group')
  t.match(html, /href="\/office\/invoices\?issuedOnFrom=2026-01-01&amp;paid=true&amp;sort=-number"|href="\/office\/invoices\?paid=true&amp;issuedOnFrom=2026-01-01&amp;sort=-number"/, 'a sort link keeps the filters')
})

t.test('money, date and boolean columns read in words, on the list and on the record page', async (t) => {
  const world = seedWorld()
  const app = await typedOffice(t, world)
  const reader = await actorOf(app, 'reader')
  const list = (await reader.get('/office/invoices')).body
  t.match(list, /<td data-label="Amount" class="cell-money">\s*€1,200.00/)
  t.match(list, /<td data-label="Issued" class="cell-date">\s*15 Jan 2026/)
  t.match(list, /<td data-label="Paid" class="cell-boolean">\s*<span class="badge badge-success">Yes<\/span>/)
  t.match(list, /<span class="badge badge-gray">No<\/span>/)
  const record = (await reader.get('/office/invoices/i2')).body
  t.match(record, '<dd>€340.50</dd>')
  t.match(record, '<dd>20 Feb 2026</dd>')
  t.match(record, '<span class="badge badge-success">Yes</span>')
})
