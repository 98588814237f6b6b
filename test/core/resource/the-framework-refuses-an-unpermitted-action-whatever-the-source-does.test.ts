// The source of these invoices checks nothing: the framework's decide() (the action's permission)
// and the action's per-record rule are the only guards, on every route, before the source is called.
import t, { type Test } from 'tap'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { login } from '../../helpers/app.ts'
import { csrfMeta, getPage } from '../../helpers/pages.ts'
import { officeWith, seedInvoices, unguardedInvoices, type Calls, type Invoice } from './fixtures/unguarded-invoices.ts'

interface Office { app: FastifyInstance; invoices: Invoice[]; calls: Calls; as(role: string): Promise<Actor> }
interface Actor { send(method: 'GET' | 'POST' | 'DELETE', url: string, form?: Array<[string, string]>): Promise<LightMyRequestResponse> }

async function office(t: Test): Promise<Office> {
  const invoices = seedInvoices()
  const calls: Calls = []
  const app = await officeWith(t, unguardedInvoices(invoices, calls))
  return {
    app, invoices, calls,
    async as(role) {
      const cookie = await login(app, `${role}@example.com`)
      const token = csrfMeta((await getPage(app, '/office', cookie)).body)
      return {
        send: (method, url, form) => app.inject({
          method, url,
          headers: { cookie, accept: 'application/json', 'x-csrf-token': token, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
          payload: form ? new URLSearchParams(form).toString() : undefined,
        }),
      }
    },
  }
}

const refused = (t: Test, response: { statusCode: number; body: string }, what: string) => {
  t.equal(response.statusCode, 403, `${what}: 403`)
  t.match(response.body, '"code":"ERR_ACCESS_DENIED"', `${what}: ERR_ACCESS_DENIED`)
}

t.test('a reader (invoices:read only) is refused every write, and the source is never asked', async (t) => {
  const { invoices, calls, as } = await office(t)
  const reader = await as('reader')
  const before = structuredClone(invoices)
  calls.length = 0
  refused(t, await reader.send('POST', '/office/invoices/i1', [['number', 'X-1'], ['status', 'void']]), 'update')
  refused(t, await reader.send('DELETE', '/office/invoices/i1'), 'delete')
  refused(t, await reader.send('GET', '/office/invoices/i1/delete'), 'the delete confirmation')
  refused(t, await reader.send('GET', '/office/invoices/new'), 'the create form')
  refused(t, await reader.send('POST', '/office/invoices', [['number', 'X-2'], ['status', 'draft']]), 'create')
  refused(t, await reader.send('GET', '/office/invoices/bulk-delete?ids=i1'), 'the bulk delete confirmation')
  refused(t, await reader.send('POST', '/office/invoices/bulk-delete', [['ids', 'i1']]), 'bulk delete')
  t.same(invoices, before, 'nothing changed')
  t.same(calls, [], 'not one call reached the source')
  // What the role does hold still works.
  t.equal((await reader.send('GET', '/office/invoices')).statusCode, 200, 'the list')
  t.equal((await reader.send('GET', '/office/invoices/i1')).statusCode, 200, 'a record')
})

t.test('a role without the view permission gets neither the list nor a record', async (t) => {
  const { calls, as } = await office(t)
  const nobody = await as('nobody')
  calls.length = 0
  refused(t, await nobody.send('GET', '/office/invoices'), 'list')
  refused(t, await nobody.send('GET', '/office/invoices?search=2026'), 'list with a search')
  refused(t, await nobody.send('GET', '/office/invoices/i1'), 'a record')
  t.same(calls, [], 'the source was not asked')
})

t.test('the per-record rule refuses the write for a record it does not allow, the permission notwithstanding', async (t) => {
  const { invoices, calls, as } = await office(t)
  const accountant = await as('accountant')
  const before = structuredClone(invoices)
  calls.length = 0
  refused(t, await accountant.send('POST', '/office/invoices/i2', [['number', '2026-002'], ['status', 'draft']]), 'update of a paid invoice')
  refused(t, await accountant.send('DELETE', '/office/invoices/i2'), 'delete of a paid invoice')
  refused(t, await accountant.send('GET', '/office/invoices/i2/delete'), 'the confirmation of that delete')
  refused(t, await accountant.send('POST', '/office/invoices/bulk-delete', [['ids', 'i1'], ['ids', 'i2']]), 'a bulk delete with a paid invoice among them')
  refused(t, await accountant.send('GET', '/office/invoices/i3'), 'a record the view rule hides')
  t.same(invoices, before, 'nothing changed')
  t.same(calls.filter((call) => !call.startsWith('get ')), [], 'only reads reached the source')

  // The same routes do their work where the rule allows it.
  const updated = await accountant.send('POST', '/office/invoices/i1', [['number', '2026-001'], ['status', 'sent']])
  t.equal(updated.statusCode, 200, 'a draft is updated')
  t.equal(invoices.find((i) => i.id === 'i1')?.status, 'sent')
  const deleted = await accountant.send('DELETE', '/office/invoices/i1')
  t.equal(deleted.statusCode, 200, 'a draft is deleted')
  t.notOk(invoices.some((i) => i.id === 'i1'), 'deleted')
})
