// Issue 21: a launcher tile whose module has no page yet (Alerts) still answers 404 (specification),
// but the page says so in plain words, without the route's internals, and offers the places the
// person may open, one click away.
import path from 'node:path'
import t from 'tap'
import { seriousAxeViolations } from '../helpers/axe.ts'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'

t.setTimeout(120_000)

t.test('admin clicks the Alerts tile: a plain 404 page with the way back to their panels', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const admin = await signedInPage(browser, baseUrl, 'admin@example.com', { bypassCSP: true })
  await admin.setViewportSize({ width: 1366, height: 900 })
  const [response] = await Promise.all([admin.waitForResponse((r) => r.url().endsWith('/alerts')), admin.locator('[data-module="ALERTS"]').click()])
  t.equal(response.status(), 404, 'the module keeps answering 404')
  t.equal(await admin.locator('h1').innerText(), 'Page not found')
  const text = await admin.locator('main').innerText()
  t.notMatch(text, /No page at|GET \//, 'no method or route internals')
  t.match(await admin.locator('[data-error-message]').innerText(), /^Nothing is at this address\./)
  t.equal(await admin.locator('[data-error-address]').innerText(), '/alerts')
  const ways = admin.getByRole('list', { name: 'Where to go from here' })
  t.same(await ways.getByRole('link').allInnerTexts(), ['Back to the dashboard', 'Admin', 'My workspace', 'My signatures', 'Inbox'], 'the dashboard and the places in the top bar')
  t.same(await seriousAxeViolations(admin), [], 'axe at 1366 px')
  await admin.screenshot({ path: path.join(SCREENSHOTS, 'not-found-1366.png') })
  await admin.setViewportSize({ width: 390, height: 844 })
  t.same(await seriousAxeViolations(admin), [], 'axe at 390 px')
  t.ok(await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no horizontal scroll on a phone')
  await admin.screenshot({ path: path.join(SCREENSHOTS, 'not-found-390.png'), fullPage: true })
  await ways.getByRole('link', { name: 'Admin' }).click()
  await admin.waitForURL('**/admin')
  t.same(pageErrors(admin), [])
})
