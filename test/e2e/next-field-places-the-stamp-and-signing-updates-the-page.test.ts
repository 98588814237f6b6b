// Issue 39 item 7, on a phone (390 px) as a signer of a session: "Next field" scrolled to the
// field but placed nothing; a placed stamp let the PDF's own "Sign here" show through; after
// Finish the download message sat under the sticky bars, off-screen; the top bar's Inbox badge
// still said 1 after signing. Each is checked here, then axe at 390 and 1280 px.
import path from 'node:path'
import t from 'tap'
import type { Page } from 'playwright-core'
import { seriousAxeViolations } from '../helpers/axe.ts'
import { pageErrors, SCREENSHOTS, signedInPage, signedPageShown, startBrowserSession } from '../helpers/browser.ts'
import { makeStampPng } from '../fixtures/pdf/stamp-image.ts'

t.setTimeout(300_000)

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `next-field-${name}.png`) })
const rect = (page: Page, selector: string) => page.locator(selector).evaluate((el) => {
  const r = el.getBoundingClientRect()
  return { top: r.top, bottom: r.bottom }
})
const badge = (page: Page) => page.locator('[data-topbar="signature.inbox"] .count-badge')

t.test('phone: Next field places the stamp, the stamp hides the field\'s "Sign here", the result is in view, the badge follows', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const admin = await signedInPage(browser, baseUrl, 'admin@example.com')
  const created = await admin.request.post('/api/signing-sessions', { data: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'parallel' } })
  t.equal(created.status(), 201)

  const staff = await signedInPage(browser, baseUrl, 'staff@example.com', { bypassCSP: true })
  const csrf = await staff.evaluate(() => document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!)
  const kept = await staff.request.post('/api/signatures', { data: { label: 'Sam', image: `data:image/png;base64,${makeStampPng().toString('base64')}`, certificate: { mode: 'issue' } }, headers: { 'x-csrf-token': csrf } })
  t.equal(kept.status(), 201)
  await staff.setViewportSize({ width: 390, height: 844 })
  await staff.goto('/app/inbox')
  t.equal((await badge(staff).innerText()).trim().split('\n')[0], '1', 'the Inbox badge counts the request')
  await staff.locator('[data-sign-link]').click()
  await staff.waitForURL(/\/sign\//)
  await staff.locator('[data-marker="employee"]').waitFor()

  await staff.getByRole('button', { name: 'Next field' }).click()
  await staff.locator('[data-box="employee"]').waitFor({ timeout: 10_000 })
  t.equal(await staff.locator('[data-progress]').innerText(), '1 of 1 placed', 'Next field placed the stamp')
  t.ok(await staff.evaluate(() => document.activeElement?.matches('[data-box="employee"]')), 'and the stamp has the focus')

  // The session's page image draws "Sign here: Employee" in the field; the stamp covers it.
  const background = await staff.locator('[data-box="employee"]').evaluate((el) => getComputedStyle(el).backgroundColor)
  const alpha = /rgba\([^)]*,\s*([\d.]+)\)/.exec(background)?.[1]
  t.ok(alpha === undefined || Number(alpha) === 1, `the stamp's background is opaque (${background})`)
  await shot(staff, 'placed-390')

  // Zoomed in, as one does on a phone, and read to the end of the document (the bars stay on
  // top): the result is drawn above, out of view.
  for (let i = 0; i < 3; i++) await staff.getByRole('button', { name: 'Zoom in' }).click()
  await staff.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
  t.ok(await staff.evaluate(() => window.scrollY > 100), 'scrolled down (else the check below proves nothing)')
  await staff.getByRole('button', { name: 'Finish & Save' }).click()
  await staff.locator('[data-download]').waitFor({ timeout: 90_000 })
  await signedPageShown(staff)
  const result = await rect(staff, '[data-status]')
  const bar = await rect(staff, '[data-signer-bar]')
  t.ok(result.top >= bar.bottom - 1 && result.bottom <= 844 + 1, `the result (${result.top}-${result.bottom}) is in view below the signer bar (${bar.bottom})`)
  await staff.waitForFunction(() => !document.querySelector('[data-topbar="signature.inbox"] .count-badge'))
  t.equal(await badge(staff).count(), 0, 'the Inbox badge is gone: nothing waits any more')
  await shot(staff, 'signed-390')
  await staff.evaluate(() => window.scrollTo(0, 0))
  t.same(await seriousAxeViolations(staff), [], 'axe after signing at 390 px')
  await staff.setViewportSize({ width: 1280, height: 860 })
  t.same(await seriousAxeViolations(staff), [], 'axe after signing at 1280 px')
  await shot(staff, 'signed-1280')
  t.same(pageErrors(staff), [])
})
