// The README's demo accounts: accountant@example.com holds every invoice action, clerk@example.com
// only invoices:read; the generated forms at /office/invoices write, and the framework refuses the
// clerk's writes whatever the page shows.
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { login } from '../../../test/helpers/app.ts'
import { attributeValues, csrfMeta, getPage } from '../../../test/helpers/pages.ts'
import { bootMinimalHost } from './boot.ts'

async function signedIn(app: FastifyInstance, email: string) {
  const cookie = await login(app, email)
  const token = csrfMeta((await getPage(app, '/office', cookie)).body)
  const write = (method: 'POST' | 'DELETE', url: string, form?: Record<string, string>) => app.inject({
    method, url,
    headers: { cookie, accept: 'text/html', 'hx-request': 'true', 'x-csrf-token': token, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    payload: form ? new URLSearchParams(form).toString() : undefined,
  })
  return { cookie, write }
}

t.test('the accountant creates, edits and deletes invoices through the generated forms', async (t) => {
  const app = await bootMinimalHost(t)
  const { cookie, write } = await signedIn(app, 'accountant@example.com')
  const form = await getPage(app, '/office/invoices/new', cookie)
  t.equal(form.statusCode, 200)
  t.same(attributeValues(form.body, 'name').filter((n) => ['number', 'customer', 'amount', 'status'].includes(n)), ['number', 'customer', 'amount', 'status'])

  const created = await write('POST', '/office/invoices', { number: '2026-003', customer: 'Dana Doe', amount: '99.90', status: 'draft' })
  t.equal(created.statusCode, 200, 'created, then sent to its page')
  const list = await getPage(app, '/office/invoices?search=dana', cookie)
  t.match(list.body, '2026-003')
  t.match(list.body, '€99.90')

  const invalid = await write('POST', '/office/invoices', { number: '2026-004', customer: 'Eve', amount: 'lots', status: 'draft' })
  t.equal(invalid.statusCode, 422, 'an amount that is no number is shown on the form')
  const duplicate = await write('POST', '/office/invoices', { number: '2026-001', customer: 'Eve', amount: '1', status: 'draft' })
  t.equal(duplicate.statusCode, 422, 'a number taken is shown on the form')

  const edited = await write('POST', '/office/invoices/inv-2', { number: '2026-002', customer: 'Cody Customer', amount: '350', status: 'paid' })
  t.equal(edited.statusCode, 200)
  const page = await getPage(app, '/office/invoices/inv-2', cookie)
  t.match(page.body, '<dd>€350.00</dd>')
  t.match(page.body, 'paid')

  t.equal((await write('DELETE', '/office/invoices/inv-2')).statusCode, 200)
  t.equal((await getPage(app, '/office/invoices/inv-2', cookie)).statusCode, 404, 'gone')
})

t.test('the clerk reads invoices; every write is refused with 403 and nothing changes', async (t) => {
  const app = await bootMinimalHost(t)
  const { cookie, write } = await signedIn(app, 'clerk@example.com')
  const page = await getPage(app, '/office/invoices/inv-1', cookie)
  t.equal(page.statusCode, 200)
  t.notMatch(page.body, 'data-form="edit"', 'no edit form')
  t.notMatch(page.body, 'data-action="delete"', 'no delete button')
  t.notMatch((await getPage(app, '/office/invoices', cookie)).body, '/office/invoices/new', 'no New button')

  t.equal((await write('POST', '/office/invoices/inv-1', { number: '2026-001', customer: 'Cody Customer', amount: '1', status: 'paid' })).statusCode, 403)
  t.equal((await write('DELETE', '/office/invoices/inv-1')).statusCode, 403)
  t.equal((await write('POST', '/office/invoices', { number: '2026-009', customer: 'X', amount: '1', status: 'draft' })).statusCode, 403)
  t.equal((await getPage(app, '/office/invoices/new', cookie)).statusCode, 403)
  const after = await getPage(app, '/office/invoices/inv-1', cookie)
  t.match(after.body, '<dd>€1,200.00</dd>', 'unchanged')
  t.notMatch((await getPage(app, '/office/invoices?search=x', cookie)).body, '2026-009', 'nothing created')
})
