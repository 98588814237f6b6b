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
  t.pass('the People tile leads a manager back to the dashboard: no panel access')
  t.same(pageErrors(manager), [])

  const staff = await signedInPage(browser, baseUrl, 'staff@example.com')
  t.same(await staff.locator('[data-module]').evaluateAll((els) => els.map((e) => e.getAttribute('data-module'))), ['ORDERS'])
  await staff.screenshot({ path: path.join(SCREENSHOTS, 'launcher-staff.png'), fullPage: true })
  const response = await staff.goto('/orders')
  t.equal(response?.status(), 404)
  t.match(await staff.locator('h1').innerText(), 'Page not found')
  await staff.screenshot({ path: path.join(SCREENSHOTS, 'not-found.png') })

  await staff.getByRole('button', { name: 'Sign out' }).click()
  await staff.waitForURL('**/login')
  await staff.goto('/dashboard')
  t.match(staff.url(), /\/login/, 'signed out for good')
})
