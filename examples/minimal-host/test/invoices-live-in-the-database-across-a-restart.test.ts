// The example's invoices live in its own database (the table source over `invoices`): what the
// accountant writes through the generated forms is there when the app is built again on the same
// STORAGE_PATH, the seeded invoices are not brought back, and the clerk's writes leave no trace.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { sql } from 'kysely'
import type { FastifyInstance } from 'fastify'
import { openDatabase } from '../../../core/index.ts'
import { login } from '../../../test/helpers/app.ts'
import { csrfMeta, getPage, htmxWrite } from '../../../test/helpers/pages.ts'
import { buildMinimalHost } from '../app.ts'

async function writer(app: FastifyInstance, email: string) {
  const cookie = await login(app, email)
  const token = csrfMeta((await getPage(app, '/office', cookie)).body)
  return { cookie, write: (method: 'POST' | 'DELETE', url: string, form?: Record<string, string>) => htmxWrite(app, method, url, cookie, token, form) }
}

/** The rows of the example's database, read beside the app: what a restart finds. */
async function storedInvoices(storagePath: string) {
  const database = openDatabase({ sqliteFile: path.join(storagePath, 'app.sqlite') })
  try {
    const { rows } = await sql<{ number: string; customer: string; amount: number; status: string }>`select number, customer, amount, status from invoices order by number`.execute(database.db)
    return rows
  } finally {
    await database.close()
  }
}

t.test('an invoice the accountant creates survives a restart; the clerk\'s writes are refused and write nothing', async (t) => {
  const storagePath = await mkdtemp(path.join(tmpdir(), 'minimal-host-restart-'))
  t.teardown(() => rm(storagePath, { recursive: true, force: true }))

  const first = await buildMinimalHost({ storagePath })
  await first.ready()
  try {
    const accountant = await writer(first, 'accountant@example.com')
    t.equal((await accountant.write('POST', '/office/invoices', { number: '2026-003', customer: 'Dana Doe', amount: '99.90', status: 'sent' })).statusCode, 200, 'created through the form')
    t.equal((await accountant.write('POST', '/office/invoices/inv-1', { number: '2026-001', customer: 'Cody Customer', amount: '1250.5', status: 'paid' })).statusCode, 200, 'edited')
    t.equal((await accountant.write('DELETE', '/office/invoices/inv-2')).statusCode, 200, 'a seeded invoice deleted')

    const clerk = await writer(first, 'clerk@example.com')
    t.equal((await clerk.write('POST', '/office/invoices', { number: '2026-009', customer: 'Mallory', amount: '1', status: 'draft' })).statusCode, 403)
    t.equal((await clerk.write('POST', '/office/invoices/inv-1', { number: '2026-001', customer: 'Mallory', amount: '1', status: 'draft' })).statusCode, 403)
    t.equal((await clerk.write('DELETE', '/office/invoices/inv-1')).statusCode, 403)
  } finally {
    await first.close()
  }

  // The table itself, amounts in cents: the accountant's three writes, none of the clerk's.
  t.same(await storedInvoices(storagePath), [
    { number: '2026-001', customer: 'Cody Customer', amount: 125050, status: 'paid' },
    { number: '2026-003', customer: 'Dana Doe', amount: 9990, status: 'sent' },
  ])

  const second = await buildMinimalHost({ storagePath })
  t.teardown(() => second.close())
  await second.ready()
  const cookie = await login(second, 'clerk@example.com')
  const list = await getPage(second, '/office/invoices', cookie)
  t.equal(list.statusCode, 200)
  t.match(list.body, '2026-003', 'the created invoice is listed after the restart')
  t.match(list.body, '€99.90')
  t.match(list.body, '€1,250.50', 'so is the edit')
  t.notMatch(list.body, '2026-002', 'the deleted seed is not seeded again: the table was not empty')
  t.notMatch(list.body, '2026-009', 'nothing of the clerk\'s')
  t.equal((await getPage(second, '/office/invoices/inv-2', cookie)).statusCode, 404)
  const signables = await second.inject({ url: '/api/signables/invoice', headers: { cookie: await login(second, 'customer@example.com') } })
  t.same(signables.json().data.map((r: { title: string }) => r.title), ['Invoice 2026-001', 'Invoice 2026-003'], 'the customer signs them from the same table')
})
