import path from 'node:path'
import t from 'tap'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'

t.test('admin: launcher, search People, delete after confirming, edit a name', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const page = await signedInPage(browser, baseUrl, 'admin@example.com')

  t.equal(await page.locator('[data-module]').count(), 6, 'all six modules')
  await page.screenshot({ path: path.join(SCREENSHOTS, 'launcher-admin.png'), fullPage: true })

  await page.locator('[data-module="PEOPLE"]').click()
  await page.waitForURL('**/admin/users')
  t.equal(await page.locator('tbody tr').count(), 10)
  await page.screenshot({ path: path.join(SCREENSHOTS, 'people-admin.png'), fullPage: true })

  // Search: htmx swaps the table and puts the search in the URL.
  await page.getByLabel('Search by name or e-mail').fill('olivia')
  await page.waitForURL(/search=olivia/)
  await page.locator('tbody tr').first().waitFor()
  t.equal(await page.locator('tbody tr').count(), 1, 'one match')
  t.match(await page.locator('tbody tr').first().innerText(), 'Olivia Hughes')
  await page.reload()
  t.equal(await page.locator('tbody tr').count(), 1, 'a reload shows the same table')
  t.equal(await page.getByLabel('Search by name or e-mail').inputValue(), 'olivia')

  // Sort by e-mail descending, by clicking the header twice.
  await page.getByLabel('Search by name or e-mail').fill('')
  await page.waitForURL((url) => !url.search.includes('olivia'))
  await page.locator('a[data-sort="E-mail"]').click()
  await page.waitForURL(/sort=email/)
  await page.locator('a[data-sort="E-mail"]').click()
  await page.waitForURL(/sort=-email/)
  const emails = (await page.locator('tbody tr td[data-label="E-mail"]').allInnerTexts()).map((e) => e.trim())
  t.same(emails, [...emails].sort().reverse(), 'sorted by e-mail, descending')
  t.equal(emails[0], 'theo.adeyemi@example.com')

  // Delete after confirming in the dialog.
  await page.getByLabel('Search by name or e-mail').fill('noah')
  await page.waitForURL(/search=noah/)
  await page.getByRole('button', { name: 'Delete Noah Silva' }).click()
  const dialog = page.locator('dialog#modal')
  await dialog.getByText('Delete Noah Silva?').waitFor()
  await page.screenshot({ path: path.join(SCREENSHOTS, 'people-confirm-delete.png') })
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  t.equal(await dialog.isVisible(), false, 'cancel closes the dialog')
  t.equal(await page.locator('tbody tr').count(), 1, 'and deletes nothing')
  await page.getByRole('button', { name: 'Delete Noah Silva' }).click()
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await page.getByText('Deleted Noah Silva.').waitFor()
  await page.locator('[data-empty-state]').waitFor()
  t.equal(await dialog.isVisible(), false, 'the dialog closed')

  // Edit a name: inline error first, then a success message.
  await page.goto('/admin/users/u-001')
  await page.getByLabel('Name').fill('')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await page.locator('#field-name-error').waitFor()
  t.equal(await page.locator('#field-name-error').innerText(), 'Required')
  await page.getByLabel('Name').fill('Olivia Renamed')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await page.getByText('Saved.').waitFor()
  t.equal(await page.locator('h1#record-title').innerText(), 'Olivia Renamed')
  await page.screenshot({ path: path.join(SCREENSHOTS, 'people-edit-saved.png'), fullPage: true })
  await page.goto('/admin/users?search=renamed')
  t.equal(await page.locator('tbody tr').count(), 1, 'the new name is stored')

  t.same(pageErrors(page), [], 'no script errors (CSP included)')
})
