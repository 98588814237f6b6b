// /dashboard with the signature plugin's widgets (issue 37, item 7), in Chromium at 1280 and
// 390 px: the tiles and dock first, the widgets below; nothing scrolls sideways on a phone; axe
// finds nothing serious; screenshots in artifacts/screenshots/dashboard-widgets-*.png.
import path from 'node:path'
import t from 'tap'
import { seriousAxeViolations } from '../helpers/axe.ts'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'

t.setTimeout(180_000)

t.test('manager and staff: widgets below the tiles and dock, at desktop and phone size', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const admin = await signedInPage(browser, baseUrl, 'admin@example.com', { bypassCSP: true })
  for (const signable of ['dtr-staff-2026-03', 'contract-staff']) {
    const template = signable.startsWith('dtr') ? 'daily-time-record' : 'contract'
    const created = await admin.request.post('/api/signing-sessions', { data: { template, signable, mode: 'sequential' } })
    t.equal(created.status(), 201, `a session for ${signable}`)
  }
  const staff = await signedInPage(browser, baseUrl, 'staff@example.com', { bypassCSP: true })
  const manager = await signedInPage(browser, baseUrl, 'manager@example.com', { bypassCSP: true })

  for (const [name, page, widgets] of [['staff', staff, ['Waiting for your signature']], ['manager', manager, ['Waiting for your signature', 'Sessions in progress']]] as const) {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 })
      await page.goto('/dashboard')
      await page.waitForLoadState('networkidle')
      t.same(await page.locator('[data-widget] h3').allInnerTexts().then((texts) => texts.map((s) => s.replace(/\s*\d+$/, ''))), widgets, `${name} at ${width} px: the widgets`)
      const order = await page.evaluate(() => ['#tiles-heading', '#dock-heading', '#widgets-heading'].map((s) => document.querySelector(s)!.getBoundingClientRect().top))
      t.ok(order[0]! < order[1]! && order[1]! < order[2]!, `${name} at ${width} px: tiles, then dock, then widgets`)
      t.equal(await page.evaluate(() => document.documentElement.scrollWidth), width, `${name} at ${width} px: no sideways scroll`)
      t.same(await seriousAxeViolations(page), [], `${name} at ${width} px: axe`)
      await page.screenshot({ path: path.join(SCREENSHOTS, `dashboard-widgets-${name}-${width}.png`), fullPage: true })
    }
  }
  // The link of a waiting request opens the signer page on it.
  await staff.setViewportSize({ width: 1280, height: 900 })
  await staff.goto('/dashboard')
  await staff.locator('[data-widget="signature.waiting"] tbody a').first().click()
  await staff.waitForURL(/\/app\/signature-templates\/[^/]+\/sign\/.+request=/)
  t.same(pageErrors(staff), [])
  t.same(pageErrors(manager), [])
})
