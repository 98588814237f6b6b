import path from 'node:path'
import t from 'tap'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'

t.test('manager: exactly three tiles, an empty dock, no panel', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const manager = await signedInPage(browser, baseUrl, 'manager@example.com')
  t.same(await manager.locator('.tiles [data-module]').evaluateAll((els) => els.map((e) => e.getAttribute('data-module'))), ['PEOPLE', 'ORDERS', 'REPORTS'])
  t.equal(await manager.locator('.dock [data-module]').count(), 0)
  await manager.screenshot({ path: path.join(SCREENSHOTS, 'launcher-manager.png'), fullPage: true })
  await manager.locator('[data-module="PEOPLE"]').click()
  await manager.waitForURL('**/dashboard')
  t.match(await manager.locator('#flash').innerText(), 'Admin is for administrators: your role (manager) cannot open it.', 'the People tile leads a manager back to the dashboard, which says why')
  await manager.screenshot({ path: path.join(SCREENSHOTS, 'launcher-manager-refused-notice.png') })
  t.same(pageErrors(manager), [])

  const staff = await signedInPage(browser, baseUrl, 'staff@example.com')
  t.same(await staff.locator('[data-module]').evaluateAll((els) => els.map((e) => e.getAttribute('data-module'))), ['ORDERS'])
  await staff.screenshot({ path: path.join(SCREENSHOTS, 'launcher-staff.png'), fullPage: true })
  // What staff may use beyond their one tile is reached from the top bar, by clicking.
  await staff.getByRole('navigation', { name: 'Everywhere' }).getByRole('link', { name: 'My signatures' }).click()
  await staff.waitForURL('**/app/my-signatures')
  t.equal(await staff.getByRole('link', { name: 'My signatures' }).first().getAttribute('aria-current'), 'page')
  await staff.getByRole('navigation', { name: 'Everywhere' }).getByRole('link', { name: /^Inbox/ }).click()
  await staff.waitForURL('**/app/inbox')
  t.same(await staff.locator('.topbar-link[aria-current="page"]').allInnerTexts(), ['Inbox'], 'one current link: the Inbox, not its panel too')
  await staff.setViewportSize({ width: 390, height: 844 })
  t.equal(await staff.evaluate(() => document.documentElement.scrollWidth), 390, 'the top bar fits a phone: no horizontal scroll')
  await staff.screenshot({ path: path.join(SCREENSHOTS, 'topbar-staff-phone.png') })
  await staff.setViewportSize({ width: 1366, height: 900 })
  await staff.goto('/dashboard')
  const response = await staff.goto('/orders')
  t.equal(response?.status(), 404)
  t.match(await staff.locator('h1').innerText(), 'Page not found')
  await staff.screenshot({ path: path.join(SCREENSHOTS, 'not-found.png') })

  await staff.getByRole('button', { name: 'Sign out' }).click()
  await staff.waitForURL('**/login')
  await staff.goto('/dashboard')
  t.match(staff.url(), /\/login/, 'signed out for good')
})
