// Issue 21, People: filter by role, create a person, delete two at once from the checkbox column,
// and read the toast, at desktop size; then the same pages at 390 px. Every page passes axe-core
// (no serious or critical violation), text on the new controls keeps 4.5:1, nothing scrolls sideways.
import t from 'tap'
import type { Page } from 'playwright-core'
import { pageErrors, passes, signedInPage, startBrowserSession } from '../helpers/browser.ts'
import { textContrast } from '../helpers/contrast.ts'

t.setTimeout(120_000)

t.test('admin: filter by role, create a person, bulk delete two, see the toast', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const page = await signedInPage(browser, baseUrl, 'admin@example.com', { bypassCSP: true })
  await page.goto('/admin/users')

  // Filter: the select narrows the table and the URL says so.
  await page.getByLabel('Role', { exact: true }).selectOption('manager')
  await page.waitForURL(/role=manager/)
  await page.getByText('of 9 results').waitFor()
  t.same(new Set((await page.locator('tbody td[data-label="Role"]').allInnerTexts()).map((r) => r.trim())), new Set(['manager']))
  await passes(t, page, 'people-filtered')

  // Create a person from the list's button.
  await page.getByRole('link', { name: 'New person' }).click()
  await page.waitForURL('**/admin/users/new')
  await passes(t, page, 'people-new')
  await page.getByLabel('Name').fill('Nia Newcomer')
  await page.getByLabel('E-mail address').fill('manager@example.com')
  await page.getByLabel('Role').selectOption('staff')
  await page.getByLabel('Password').fill('a-long-password')
  await page.getByRole('button', { name: 'Create person' }).click()
  await page.locator('#field-email-error').waitFor()
  // The focus moves once htmx has settled the swapped form, a moment after the error is in it.
  await page.waitForFunction(() => document.activeElement?.id === 'field-email', null, { timeout: 5_000 }).catch(() => {})
  t.equal(await page.evaluate(() => document.activeElement?.id), 'field-email', 'the taken e-mail has the focus')
  t.equal(await page.getByLabel('E-mail address').getAttribute('aria-invalid'), 'true')
  await page.getByLabel('E-mail address').fill('nia@example.com')
  await page.getByLabel('Password').fill('a-long-password')
  await page.getByRole('button', { name: 'Create person' }).click()
  await page.waitForURL(/\/admin\/users\/[0-9a-f-]{36}$/)
  await page.locator('#flash').getByText('Created Nia Newcomer.').waitFor()
  t.equal(await page.locator('h1#record-title').innerText(), 'Nia Newcomer')

  // Bulk delete: choose two staff rows, confirm the count, the toast says so and can be closed.
  await page.goto('/admin/users?role=staff&search=o')
  const before = Number((await page.locator('.pagination-summary strong').nth(2).innerText()).trim())
  t.notOk(await page.locator('[data-bulk-bar]').isVisible(), 'no bulk bar before a choice')
  const boxes = page.locator('[data-select-row]')
  const chosen = [await boxes.nth(0).getAttribute('aria-label'), await boxes.nth(1).getAttribute('aria-label')].map((label) => label!.replace(/^Select /, ''))
  await boxes.nth(0).check()
  await boxes.nth(1).check()
  await page.getByText('2 rows selected').waitFor()
  t.equal(await page.locator('[data-select-all]').evaluate((el) => (el as HTMLInputElement).indeterminate), before > 2, 'select-all is half checked')
  const contrast = await textContrast(page, '.bulk-count, .toolbar-label, .badge')
  t.same(contrast.filter((m) => m.ratio < 4.5), [], 'text of the new controls at >= 4.5:1')
  await page.getByRole('button', { name: 'Delete selected' }).click()
  const dialog = page.locator('dialog#modal')
  await dialog.getByText('Delete 2 people?').waitFor()
  t.match(await dialog.innerText(), `${chosen[0]}, ${chosen[1]} will be removed`)
  await passes(t, page, 'people-bulk-confirm')
  await dialog.getByRole('button', { name: 'Delete 2 people' }).click()
  const toast = page.locator('#flash [data-toast="success"]')
  await toast.getByText('Deleted 2 people.').waitFor()
  // The pointer on it keeps it (it would go by itself after a few seconds).
  await toast.hover()
  await dialog.waitFor({ state: 'hidden' })
  await page.getByText(`of ${before - 2} results`).waitFor()
  await page.waitForFunction(() => document.activeElement?.id === 'main')
  t.pass('the focus is on the page, not lost with the swapped table')
  t.equal(await page.locator('#flash').evaluate((el) => getComputedStyle(el).position), 'fixed', 'the toast floats: the heading did not move')
  await passes(t, page, 'people-bulk-deleted-toast')
  await toast.getByRole('button', { name: 'Close message' }).click()
  await toast.waitFor({ state: 'detached' })

  // Phone size: the same pages, and select-all still reachable.
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/admin/users?role=staff')
  await passes(t, page, 'phone-people-filtered')
  // By keyboard: Space ticks "select all", Shift+Tab reaches the bar's button just above, Enter
  // asks, and the dialog's safe choice has the focus; Escape closes it.
  await page.locator('[data-select-all]').focus()
  await page.keyboard.press('Space')
  await page.getByText('10 rows selected').waitFor()
  await page.keyboard.press('Shift+Tab')
  t.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Delete selected', 'Shift+Tab reaches the bulk button')
  await page.keyboard.press('Enter')
  await dialog.getByText('Delete 10 people?').waitFor()
  t.equal(await page.evaluate(() => document.activeElement?.textContent?.trim()), 'Cancel', 'the safe choice has the focus')
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'hidden' })
  await passes(t, page, 'phone-people-all-selected')
  await page.goto('/admin/users/new')
  await passes(t, page, 'phone-people-new')
  t.same(pageErrors(page), [], 'no script errors')
})
