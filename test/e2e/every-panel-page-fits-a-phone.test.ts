// Issue 21, phones (390 x 844): every page of each panel, reached by clicking what a person would
// click (the top bar, the navigation drawer, the rows), scrolls no wider than the screen and has no
// serious or critical axe-core violation. The drawer has a backdrop and a close button, Escape
// closes it and gives the focus back to the toggle, and the page behind it is inert.
import path from 'node:path'
import t from 'tap'
import type { Page } from 'playwright-core'
import { seriousAxeViolations } from '../helpers/axe.ts'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'
import { makeStampPng } from '../fixtures/pdf/stamp-image.ts'

t.setTimeout(300_000)

const PHONE = { width: 390, height: 844 }

/** What is wider than the screen: the document, and the elements that stick out of it. */
async function overflow(page: Page): Promise<{ scrollWidth: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth
    const culprits: string[] = []
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect()
      // An element inside a container that scrolls (or clips) does not widen the page: not a culprit.
      let inside = false
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) if (getComputedStyle(up).overflowX !== 'visible') { inside = true; break }
      if (r.width > 0 && r.right > width + 1 && getComputedStyle(el).position !== 'fixed' && !inside) {
        culprits.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${String(el.className).split(' ')[0]} right=${Math.round(r.right)}`)
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, culprits: culprits.slice(0, 5) }
  })
}

async function check(t: Tap.Test, page: Page, name: string): Promise<void> {
  await page.waitForLoadState('networkidle')
  const { scrollWidth, culprits } = await overflow(page)
  t.ok(scrollWidth <= PHONE.width, `${name}: no horizontal scroll (scrollWidth ${scrollWidth}${culprits.length ? '; ' + culprits.join(', ') : ''})`)
  t.same(await seriousAxeViolations(page), [], `${name}: axe at 390 px`)
  await page.screenshot({ path: path.join(SCREENSHOTS, `phone-${name}.png`), fullPage: true })
}

/** Opens the drawer with its toggle and follows one of its links. */
async function viaDrawer(page: Page, label: string): Promise<void> {
  await page.getByRole('button', { name: 'Open navigation' }).click()
  const drawer = page.locator('#sidebar')
  await drawer.getByRole('link', { name: label, exact: true }).click()
  await page.waitForLoadState('domcontentloaded')
}

declare namespace Tap { type Test = import('tap').Test }

t.test('every panel page at 390 px: no horizontal scroll, no serious axe violation', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const admin = await signedInPage(browser, baseUrl, 'admin@example.com', { bypassCSP: true })
  await admin.setViewportSize(PHONE)
  await check(t, admin, 'admin-dashboard')

  // The drawer: backdrop, close button, Escape, the page behind inert.
  await admin.getByRole('navigation', { name: 'Everywhere' }).getByRole('link', { name: 'Admin' }).click()
  await admin.waitForURL('**/admin')
  const toggle = admin.getByRole('button', { name: 'Open navigation' })
  await toggle.click()
  t.equal(await toggle.getAttribute('aria-expanded'), 'true')
  // Alpine shows the backdrop on its next update, not always in the tick that sets aria-expanded
  // (seen failing once in a fresh-clone CI run under load): wait for it, bounded.
  t.ok(await admin.locator('[data-nav-backdrop]').waitFor({ state: 'visible', timeout: 5000 }).then(() => true, () => false), 'a backdrop behind the drawer')
  t.ok(await admin.evaluate(() => document.getElementById('main')!.inert), 'the page behind is inert')
  t.ok(await admin.evaluate(() => document.activeElement?.closest('#sidebar') !== null), 'the focus moved into the drawer')
  await check(t, admin, 'admin-drawer-open')
  await admin.keyboard.press('Escape')
  t.ok(await admin.locator('#sidebar').isHidden(), 'Escape closes it')
  t.ok(await admin.evaluate(() => document.activeElement?.classList.contains('nav-toggle')), 'and the focus is back on the toggle')
  await toggle.click()
  await admin.locator('#sidebar').getByRole('button', { name: 'Close navigation' }).click()
  t.ok(await admin.locator('#sidebar').isHidden(), 'the close button closes it')
  await toggle.click()
  await admin.locator('[data-nav-backdrop]').click({ position: { x: 370, y: 400 } })
  t.ok(await admin.locator('#sidebar').isHidden(), 'a tap on the backdrop closes it')
  await check(t, admin, 'admin-home')

  await viaDrawer(admin, 'People')
  await admin.waitForURL('**/admin/users')
  await check(t, admin, 'admin-people')
  // Each row's actions are on the screen, not scrolled out of reach inside the table.
  const actions = await admin.locator('tbody tr').nth(1).locator('.actions-col .button').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().right))
  // The name is the row's link; Delete is its one action button (no second "Open" tab stop).
  t.ok(actions.length === 1 && actions.every((right) => right <= 390), `Delete within the screen (right edges ${actions.map(Math.round).join(', ')})`)
  await admin.locator('tbody a').first().click()
  await admin.waitForURL(/\/admin\/users\/u-/)
  await check(t, admin, 'admin-person')
  await viaDrawer(admin, 'Signature templates')
  await admin.waitForURL('**/admin/signature-templates')
  await check(t, admin, 'admin-templates')
  const templateActions = await admin.locator('[data-template] .actions-col a').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().right))
  t.ok(templateActions.length > 0 && templateActions.every((right) => right <= 390), `template actions within the screen (${templateActions.map(Math.round).join(', ')})`)
  await admin.locator('[data-template="payslip"] [data-designer-link]').click()
  await admin.waitForURL('**/payslip/design')
  await admin.locator('[data-slot-box="employee"]').waitFor({ state: 'visible', timeout: 60_000 })
  await check(t, admin, 'admin-designer')
  await viaDrawer(admin, 'Signature templates')
  await admin.locator('[data-template="contract"] [data-send-link]').click()
  await admin.waitForURL('**/app/sessions/new?template=contract')
  await check(t, admin, 'app-send-form')
  await admin.getByRole('navigation', { name: 'Everywhere' }).getByRole('link', { name: 'Admin' }).click()
  await viaDrawer(admin, 'Outbox')
  await check(t, admin, 'admin-outbox')
  await viaDrawer(admin, 'Webhooks')
  await check(t, admin, 'admin-webhooks')

  await admin.getByRole('navigation', { name: 'Everywhere' }).getByRole('link', { name: 'My workspace' }).click()
  await admin.waitForURL('**/app')
  await check(t, admin, 'app-home')
  await viaDrawer(admin, 'Signing sessions')
  await check(t, admin, 'app-sessions')
  await viaDrawer(admin, 'My signatures')
  await check(t, admin, 'app-my-signatures')
  await viaDrawer(admin, 'Inbox')
  await check(t, admin, 'app-inbox')

  const staff = await signedInPage(browser, baseUrl, 'staff@example.com', { bypassCSP: true })
  await staff.setViewportSize(PHONE)
  await check(t, staff, 'staff-dashboard')
  await staff.getByRole('navigation', { name: 'Everywhere' }).getByRole('link', { name: 'My signatures' }).click()
  await staff.waitForURL('**/app/my-signatures')
  await check(t, staff, 'staff-my-signatures')
  const csrf = await staff.evaluate(() => document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!)
  await staff.request.post('/api/signatures', { data: { label: 'Sam', image: `data:image/png;base64,${makeStampPng().toString('base64')}`, certificate: { mode: 'issue' } }, headers: { 'x-csrf-token': csrf } })
  await staff.reload()
  await staff.locator('[data-sign-link="payslip/payslip-staff-2026-03"]').click()
  await staff.locator('[data-marker="employee"]').waitFor()
  await check(t, staff, 'staff-signer')
  await staff.getByRole('navigation', { name: 'Everywhere' }).getByRole('link', { name: /^Inbox/ }).click()
  await staff.waitForURL('**/app/inbox')
  await check(t, staff, 'staff-inbox')
  t.same(pageErrors(admin), [])
  t.same(pageErrors(staff), [])
})
