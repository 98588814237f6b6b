// Issue 37 item 6 in the example host: an invoice's view page read by a clerk (details in words,
// no form), the list's date-range filter, the edit page's typed inputs, and a bulk "Mark as paid"
// asked in the app's dialog, cancelled once, then confirmed. axe finds nothing serious at 1280
// and 390 px; nothing scrolls sideways.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import type { Browser, Page } from 'playwright-core'
import { buildMinimalHost } from '../../examples/minimal-host/app.ts'
import { launchChromium, passes } from '../helpers/browser.ts'

t.setTimeout(120_000)

/** Signed in through the login page (the example host lands on /office), script errors collected. */
async function signedIn(browser: Browser, baseUrl: string, email: string): Promise<{ page: Page; errors: string[] }> {
  // bypassCSP: only so the accessibility pass can inject axe-core.
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 860 }, bypassCSP: true })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()) })
  await page.goto('/login')
  await page.getByLabel('E-mail address').fill(email)
  await page.getByLabel('Password').fill('password')
  await Promise.all([page.waitForURL((url) => url.pathname !== '/login'), page.getByRole('button', { name: 'Sign in' }).click()])
  return { page, errors }
}

async function exampleHost(t: { teardown(fn: () => unknown): void }) {
  const storagePath = await mkdtemp(path.join(tmpdir(), 'minimal-host-e2e-'))
  const app = await buildMinimalHost({ storagePath })
  const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 })
  const browser = await launchChromium()
  t.teardown(async () => {
    await browser.close()
    await app.close()
    await rm(storagePath, { recursive: true, force: true })
  })
  return { baseUrl, browser }
}

t.test("a clerk reads an invoice's page; an accountant filters by date and marks two invoices paid after confirming", async (t) => {
  const { baseUrl, browser } = await exampleHost(t)

  // The clerk (invoices:read only): the record page is read-only, values in words.
  const { page: clerk, errors: clerkErrors } = await signedIn(browser, baseUrl, 'clerk@example.com')
  await clerk.goto('/office/invoices/inv-1')
  t.equal(await clerk.locator('h1#record-title').innerText(), 'Invoice 2026-001')
  const details = await clerk.locator('dl.details').innerText()
  t.match(details, '€1,200.00')
  t.match(details, '15 Jan 2026')
  t.equal(await clerk.locator('form[data-form="edit"]').count(), 0, 'no form for a reader')
  t.equal(await clerk.getByRole('button', { name: 'Mark as paid' }).count(), 0, 'no action the clerk may not take')
  await passes(t, clerk, 'invoice-view-clerk')
  await clerk.setViewportSize({ width: 390, height: 844 })
  await passes(t, clerk, 'invoice-view-clerk-phone')
  t.same(clerkErrors, [], 'no script errors for the clerk')

  // The accountant: the date range narrows the list and the URL keeps it.
  const { page, errors } = await signedIn(browser, baseUrl, 'accountant@example.com')
  await page.goto('/office/invoices')
  await page.getByLabel('Issued from').fill('2026-02-01')
  await page.waitForURL(/issued_onFrom=2026-02-01/)
  await page.getByText('of 1 results').waitFor()
  t.same((await page.locator('tbody td[data-label="Number"]').allInnerTexts()).map((s) => s.trim()), ['2026-002'])
  await passes(t, page, 'invoices-date-range')

  // The view page, then the edit page behind its Edit button, with typed inputs.
  await page.goto('/office/invoices/inv-2')
  t.equal(await page.locator('form[data-form="edit"]').count(), 0, 'the view page has no form')
  await passes(t, page, 'invoice-view-accountant')
  await Promise.all([page.waitForURL('**/office/invoices/inv-2/edit'), page.getByRole('link', { name: 'Edit' }).click()])
  t.equal(await page.getByLabel('Issued on').getAttribute('type'), 'date')
  t.equal(await page.getByLabel('Issued on').inputValue(), '2026-02-20')
  t.equal(await page.getByLabel('Amount (EUR)').inputValue(), '340.50')
  await passes(t, page, 'invoice-edit-typed-fields')
  await page.getByLabel('Amount (EUR)').fill('345.00')
  await Promise.all([page.waitForURL('**/office/invoices/inv-2'), page.getByRole('button', { name: 'Save changes' }).click()])
  await page.locator('dl.details').getByText('€345.00').waitFor()

  // Bulk: choose both, ask, cancel (nothing happens), ask again, confirm.
  await page.goto('/office/invoices')
  await page.locator('[data-select-all]').check()
  await page.getByText('2 rows selected').waitFor()
  const bulk = page.locator('[data-bulk-bar]').getByRole('button', { name: 'Mark as paid' })
  await bulk.click()
  const dialog = page.locator('dialog#modal')
  await dialog.getByText('Mark the chosen invoices as paid?').waitFor()
  await passes(t, page, 'invoices-bulk-confirm')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await dialog.waitFor({ state: 'hidden' })
  t.same((await page.locator('tbody td[data-label="Status"]').allInnerTexts()).map((s) => s.trim()).sort(), ['Draft', 'Sent'].map((s) => s.toLowerCase()).sort(), 'cancelled: nothing changed')
  await bulk.click()
  await dialog.getByText('Mark the chosen invoices as paid?').waitFor()
  await dialog.getByRole('button', { name: 'Mark as paid' }).click()
  await page.locator('#flash [data-toast="success"]').getByText('Mark as paid: 2 invoices.').waitFor()
  await page.waitForFunction(() => [...document.querySelectorAll('tbody td[data-label="Status"]')].every((td) => td.textContent!.trim() === 'paid'))
  t.equal(await page.locator('[data-select-row]').count(), 0, 'paid invoices offer no checkbox (the rule)')

  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/office/invoices?issued_onFrom=2026-01-01')
  await passes(t, page, 'invoices-list-phone')
  // Nothing of the toolbar hangs off either edge (an overflow to the left scrolls nowhere, so measure it).
  const outside = await page.evaluate(() => [...document.querySelectorAll('.toolbar .input, .toolbar-label')].filter((el) => { const r = el.getBoundingClientRect(); return r.left < 0 || r.right > window.innerWidth }).map((el) => el.id || el.textContent))
  t.same(outside, [], 'every toolbar control within the screen')
  await page.goto('/office/invoices/inv-1')
  await passes(t, page, 'invoice-view-accountant-phone')
  t.same(errors, [], 'no script errors for the accountant')
})
