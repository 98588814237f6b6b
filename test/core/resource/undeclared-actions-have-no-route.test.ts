// A resource that declares only `view` has no write routes at all: they answer 404, like any
// path the panel does not have, and the source (which checks nothing) is never asked.
import t from 'tap'
import { login } from '../../helpers/app.ts'
import { csrfMeta, getPage } from '../../helpers/pages.ts'
import { officeWith, seedInvoices, unguardedInvoices, type Calls } from './fixtures/unguarded-invoices.ts'

t.test('a read-only resource: update, delete, create and bulk delete are not mounted', async (t) => {
  const invoices = seedInvoices()
  const calls: Calls = []
  const app = await officeWith(t, unguardedInvoices(invoices, calls, { view: { permission: 'invoices:read' } }))
  // The accountant holds invoices:*: only the missing route can refuse.
  const cookie = await login(app, 'accountant@example.com')
  const token = csrfMeta((await getPage(app, '/office', cookie)).body)
  const send = (method: 'GET' | 'POST' | 'DELETE', url: string, form?: Record<string, string>) => app.inject({
    method, url,
    headers: { cookie, accept: 'application/json', 'x-csrf-token': token, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    payload: form ? new URLSearchParams(form).toString() : undefined,
  })
  const before = structuredClone(invoices)
  calls.length = 0
  for (const [method, url, form] of [
    ['POST', '/office/invoices/i1', { number: 'X', status: 'void' }],
    ['DELETE', '/office/invoices/i1', undefined],
    ['GET', '/office/invoices/i1/delete', undefined],
    ['POST', '/office/invoices', { number: 'X', status: 'draft' }],
    ['POST', '/office/invoices/bulk-delete', { ids: 'i1' }],
  ] as const) {
    const response = await send(method, url, form)
    t.equal(response.statusCode, 404, `${method} ${url}: 404`)
    t.match(response.body, '"code":"ERR_NOT_FOUND"')
  }
  t.same(invoices, before, 'nothing changed')
  t.same(calls, [], 'the source was not asked')

  const record = await getPage(app, '/office/invoices/i1', cookie)
  t.equal(record.statusCode, 200)
  t.notMatch(record.body, 'hx-post="/office/invoices/i1"', 'no edit form')
  t.notMatch(record.body, 'data-action="delete"', 'no delete button')
})
