// Issue 21: without a mouse. Staff signs their payslip from My signatures with Tab, Enter and the
// arrow keys only (Next field, the "Sign here" marker, the stamp moved, Finish & Save, the download
// link); an admin places a slot in the designer the same way, resizes it with Alt+arrows and types
// its height. No click, no URL typed after sign-in.
import t from 'tap'
import type { Page } from 'playwright-core'
import { pageErrors, signedInPage, startBrowserSession } from '../helpers/browser.ts'
import { makeStampPng } from '../fixtures/pdf/stamp-image.ts'

t.setTimeout(180_000)

/** Presses Tab (or Shift+Tab) until `selector` has the focus, as a keyboard user would. */
async function tabTo(page: Page, selector: string, { back = false, limit = 60 } = {}): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab')
  }
  throw new Error(`${selector} not reached with ${limit} presses of ${back ? 'Shift+Tab' : 'Tab'}`)
}

const focused = (page: Page, selector: string) => page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)

t.test('keyboard only: sign a payslip from My signatures; place a slot in the designer', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const staff = await signedInPage(browser, baseUrl, 'staff@example.com')
  await staff.setViewportSize({ width: 1366, height: 900 })
  // Setup, not part of the walk: a library signature through the API.
  const csrf = await staff.evaluate(() => document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!)
  t.equal((await staff.request.post('/api/signatures', { data: { label: 'Sam', image: `data:image/png;base64,${makeStampPng().toString('base64')}`, certificate: { mode: 'issue' } }, headers: { 'x-csrf-token': csrf } })).status(), 201)

  await tabTo(staff, '.topbar-link[data-topbar="my-signatures"], .topbar-link[href$="/my-signatures"]')
  await Promise.all([staff.waitForURL('**/app/my-signatures'), staff.keyboard.press('Enter')])
  await staff.locator('[data-sign-link="payslip/payslip-staff-2026-03"]').waitFor()
  await tabTo(staff, '[data-sign-link="payslip/payslip-staff-2026-03"]')
  await Promise.all([staff.waitForURL(/\/sign\//), staff.keyboard.press('Enter')])
  await staff.locator('[data-marker="employee"]').waitFor()

  await tabTo(staff, '[data-next]')
  await staff.keyboard.press('Enter')
  // Issue 39 item 7: Next field places the stamp itself (it used to stop at the "Sign here" marker).
  await staff.locator('[data-box="employee"]').waitFor()
  t.ok(await focused(staff, '[data-box="employee"]'), 'Next field placed the stamp, which has the focus')
  await staff.keyboard.press('Shift+ArrowUp')
  await staff.keyboard.press('ArrowLeft')
  t.equal(await staff.locator('[data-progress]').innerText(), '1 of 1 placed')
  await tabTo(staff, '[data-finish]', { back: true })
  const sent = staff.waitForRequest((r) => r.url().endsWith('/signer/finalize'))
  await staff.keyboard.press('Enter')
  t.same((await sent).postDataJSON().placements.map((p: { x: number; y: number }) => [p.x, p.y]), [[56 - 1, 92 + 10]], 'the stamp where the keys put it')
  await staff.locator('[data-download]').waitFor({ timeout: 60_000 })
  t.ok(await focused(staff, '[data-status]'), 'the result has the focus')
  await staff.keyboard.press('Tab')
  t.ok(await focused(staff, '[data-download]'), 'one Tab to the download link')
  t.match(await staff.locator('[data-status]').innerText(), /^Signed on .+ Download the signed PDF$/)
  t.same(pageErrors(staff), [])

  const admin = await signedInPage(browser, baseUrl, 'admin@example.com')
  await admin.setViewportSize({ width: 1366, height: 900 })
  await tabTo(admin, '.topbar-link[href="/admin"]')
  await Promise.all([admin.waitForURL('**/admin'), admin.keyboard.press('Enter')])
  await tabTo(admin, '.sidebar-link[href$="/signature-templates"]')
  await Promise.all([admin.waitForURL('**/admin/signature-templates'), admin.keyboard.press('Enter')])
  await tabTo(admin, '[data-template="payslip"] [data-designer-link]')
  await Promise.all([admin.waitForURL('**/payslip/design'), admin.keyboard.press('Enter')])
  await admin.locator('[data-slot-box="payroll"]').waitFor({ state: 'visible', timeout: 60_000 })
  await tabTo(admin, '[data-slot-box="payroll"]')
  for (let i = 0; i < 3; i++) await admin.keyboard.press('Shift+ArrowUp')
  // Resize with Alt+arrows: 2 pt wider.
  await admin.keyboard.press('Alt+ArrowRight')
  await admin.keyboard.press('Alt+ArrowRight')
  // The height typed in the selected slot's field, in points.
  await tabTo(admin, '[data-field="height"]')
  await admin.keyboard.press('Control+a')
  await admin.keyboard.type('50.5')
  await admin.keyboard.press('Enter')
  await tabTo(admin, '[data-save-slot="payroll"]')
  await admin.keyboard.press('Enter')
  await admin.locator('[data-slot-feedback="payroll"]', { hasText: 'Saved' }).waitFor()
  const metaUrl = (await admin.locator('[data-designer]').getAttribute('data-meta-url'))!
  const meta = (await (await admin.request.get(metaUrl)).json()) as { slots: Array<{ key: string; x: number; y: number; width: number; height: number; saved: boolean }> }
  t.match(meta.slots.find((s) => s.key === 'payroll'), { x: 335, y: 92 + 30, width: 204 + 2, height: 50.5, saved: true }, 'placed 30 pt higher, 2 pt wider, 50.5 pt high, saved, by keyboard')
  t.same(pageErrors(admin), [])
})
