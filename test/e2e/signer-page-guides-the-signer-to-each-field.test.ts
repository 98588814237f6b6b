// Issue 21, the signer page: a first-time signer is shown where to sign and brought there. A chip
// or "Next field" scrolls the stamp (the payslip's, far down the page; the contract's, on page 2)
// into view below the sticky signer bar, which itself stays below the top bar; "Sign here"
// markers stand on every field not placed yet; progress is counted; the placed stamp is reached
// and moved with the keyboard; Finish & Save comes after the fields in tab order and hands the
// focus to the result; Cancel leads back to where the person came from; zoom works.
import path from 'node:path'
import t from 'tap'
import type { Page } from 'playwright-core'
import { seriousAxeViolations } from '../helpers/axe.ts'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'
import { makeStampPng } from '../fixtures/pdf/stamp-image.ts'

t.setTimeout(240_000)

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `signer-guide-${name}.png`) })

/** The element's box relative to the viewport. */
const rect = (page: Page, selector: string) => page.locator(selector).evaluate((el) => {
  const r = el.getBoundingClientRect()
  return { top: r.top, bottom: r.bottom, left: r.left, width: r.width, height: r.height }
})

/** The stamp is wholly in the viewport and not under the sticky signer bar. */
async function inView(page: Page, selector: string): Promise<boolean> {
  const box = await rect(page, selector)
  const bar = await rect(page, '[data-signer-bar]')
  const height = page.viewportSize()!.height
  return box.top >= bar.bottom - 1 && box.bottom <= height + 1
}

const focusedIs = (page: Page, selector: string) => page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)

async function openSigner(page: Page, signLink: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Everywhere' }).getByRole('link', { name: 'My signatures' }).click()
  await page.waitForURL('**/app/my-signatures')
  await page.locator(`[data-sign-link="${signLink}"]`).click()
  await page.waitForURL(/\/sign\//)
  await page.locator('img.signer-page').evaluate((img: HTMLImageElement) => img.complete || new Promise((r) => img.addEventListener('load', r)))
}

t.test('signer page: guided to each field, stamp in view and moved by keyboard, focus and Cancel sensible', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const page = await signedInPage(browser, baseUrl, 'staff@example.com', { bypassCSP: true })
  await page.setViewportSize({ width: 1366, height: 900 })
  const csrf = await page.evaluate(() => document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!)
  const created = await page.request.post('/api/signatures', { data: { label: 'Sam', image: `data:image/png;base64,${makeStampPng().toString('base64')}`, certificate: { mode: 'issue' } }, headers: { 'x-csrf-token': csrf } })
  t.equal(created.status(), 201)

  await t.test('payslip: the stamp far down the page is brought into view; keyboard moves it', async (t) => {
    await openSigner(page, 'payslip/payslip-staff-2026-03')
    t.equal(await page.locator('[data-cancel]').getAttribute('href'), '/app/my-signatures', 'Cancel leads back to My signatures')
    const marker = page.locator('[data-marker="employee"]')
    t.match(await marker.innerText(), /^➜\s*Sign here: Employee$/, 'a "Sign here" marker on the field before any click')
    t.equal(await page.locator('[data-progress]').innerText(), '0 of 1 placed')
    t.ok(await page.locator('[data-required-legend]').isVisible(), 'the "*" is explained')
    t.equal(await page.locator('[data-chip="employee"]').getAttribute('aria-label'), 'Employee (required)')
    t.ok(await page.getByRole('heading', { name: 'Your signatures' }).isVisible(), 'the strip has a heading')
    t.notOk(await inView(page, '[data-marker="employee"]'), 'the field starts below the fold (else this test proves nothing)')
    await shot(page, 'payslip-opened-1366')

    await page.locator('[data-chip="employee"]').click()
    await page.locator('[data-box="employee"]').waitFor()
    t.ok(await inView(page, '[data-box="employee"]'), 'the placed stamp is scrolled into view, below the signer bar')
    t.ok(await page.evaluate(() => window.scrollY > 0), 'the page did scroll')
    const topbar = await rect(page, '.topbar')
    const bar = await rect(page, '[data-signer-bar]')
    t.ok(bar.top >= topbar.bottom, `scrolled, the signer bar (top ${bar.top}) sits below the top bar (bottom ${topbar.bottom})`)
    t.equal(await page.locator('[data-progress]').innerText(), '1 of 1 placed')
    t.equal(await page.locator('[data-marker]').count(), 0, 'no marker on a placed field')
    await shot(page, 'payslip-placed-1366')

    // Tab order: the fields, then Next field, Cancel, Finish & Save.
    await page.locator('[data-chip="employee"]').focus()
    const order: string[] = []
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab')
      order.push(await page.evaluate(() => {
        const el = document.activeElement!
        return el.hasAttribute('data-next') ? 'next' : el.hasAttribute('data-cancel') ? 'cancel' : el.hasAttribute('data-finish') ? 'finish' : el.outerHTML.slice(0, 60)
      }))
    }
    t.same(order, ['next', 'cancel', 'finish'], 'Finish & Save comes after the fields')

    // The stamp is reachable by Tab and moved with arrows: 3 pt right, 10 pt up (Shift).
    const box = page.locator('[data-box="employee"]')
    await box.focus()
    t.equal(await box.getAttribute('aria-describedby'), 'signer-box-help')
    const before = await rect(page, '[data-box="employee"]')
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight')
    await page.keyboard.press('Shift+ArrowUp')
    const after = await rect(page, '[data-box="employee"]')
    t.ok(after.left > before.left && after.top < before.top, 'arrows moved the stamp right and up')
    t.ok(await focusedIs(page, '[data-box="employee"]'), 'the stamp keeps the focus while moved')

    // Zoom in: the page and the stamp grow together.
    const width = await page.locator('img.signer-page').evaluate((img) => img.clientWidth)
    await page.getByRole('button', { name: 'Zoom in' }).click()
    t.equal(await page.locator('[data-zoom-value]').innerText(), '125%')
    const zoomed = await page.locator('img.signer-page').evaluate((img) => img.clientWidth)
    t.ok(Math.abs(zoomed / width - 1.25) < 0.02, `zoomed image ${zoomed} px vs ${width} px`)
    const stampZoomed = await rect(page, '[data-box="employee"]')
    t.ok(Math.abs(stampZoomed.width / after.width - 1.25) < 0.03, 'the stamp follows the zoom')
    await page.getByRole('button', { name: 'Fit width' }).click()
    t.equal(await page.locator('img.signer-page').evaluate((img) => img.clientWidth), width)

    const finalize = page.waitForRequest((request) => request.url().endsWith('/signer/finalize'))
    await page.getByRole('button', { name: 'Finish & Save' }).click()
    const sent = (await finalize).postDataJSON() as { placements: Array<{ x: number; y: number }> }
    t.same(sent.placements.map((p) => [p.x, p.y]), [[56 + 3, 92 + 10]], 'the keyboard move is what is signed (payslip default 56, 92)')
    await page.locator('[data-download]').waitFor({ timeout: 60_000 })
    t.ok(await focusedIs(page, '[data-status]'), 'the focus goes to the result, not to <body>')
    t.ok(await page.locator('[data-finish]').isHidden(), 'no faded Finish & Save next to Done')
    t.equal(await page.locator('[data-cancel]').innerText(), 'Done')
    t.equal(await page.locator('[data-progress]').innerText(), 'Signed')
    t.ok(await page.locator('[data-chips]').isHidden(), 'no faded chips left either')
    await shot(page, 'payslip-signed-1366')
    t.same(await seriousAxeViolations(page), [], 'axe after signing')
  })

  await t.test('contract: Next field jumps to page 2 and places the stamp there (issue 39 item 7)', async (t) => {
    await openSigner(page, 'contract/contract-staff')
    t.equal(await page.locator('[data-page]').inputValue(), '1')
    t.same(await seriousAxeViolations(page), [], 'axe on the opened signer page')
    await page.getByRole('button', { name: 'Next field' }).click()
    await page.locator('[data-box="employee"]').waitFor()
    t.equal(await page.locator('[data-page]').inputValue(), '2', 'jumped to the page of the field')
    t.ok(await focusedIs(page, '[data-box="employee"]'), 'the placed stamp takes the focus')
    t.ok(await inView(page, '[data-box="employee"]'), 'and is in view')
    await shot(page, 'contract-placed-1366')
    await page.keyboard.press('Delete')
    t.equal(await page.locator('[data-box="employee"]').count(), 0, 'Delete removes it')
    t.ok(await focusedIs(page, '[data-marker="employee"]'), 'the focus returns to its marker')
    await page.keyboard.press('Enter')
    await page.locator('[data-box="employee"]').waitFor()
    t.ok(await focusedIs(page, '[data-box="employee"]'), 'Enter on the marker places it again')
    await page.keyboard.press('Delete')

    // On a phone the signer bar, taller, still sits below the top bar.
    await page.setViewportSize({ width: 390, height: 844 })
    await page.locator('[data-chip="employee"]').click()
    await page.locator('[data-box="employee"]').waitFor()
    t.ok(await inView(page, '[data-box="employee"]'), 'in view on a phone')
    const topbar = await rect(page, '.topbar')
    const bar = await rect(page, '[data-signer-bar]')
    t.ok(bar.top >= topbar.bottom, `phone: signer bar top ${bar.top} >= top bar bottom ${topbar.bottom}`)
    t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no horizontal scroll on a phone')
    await shot(page, 'contract-placed-390')
    // At the top: scrolled, the sticky bars cover the zoom buttons, which axe counts as too small targets.
    await page.evaluate(() => window.scrollTo(0, 0))
    t.same(await seriousAxeViolations(page), [], 'axe at 390 px')
    await page.getByRole('link', { name: 'Cancel' }).click()
    await page.waitForURL('**/app/my-signatures')
    await page.setViewportSize({ width: 1366, height: 900 })
  })

  t.same(pageErrors(page), [])
})
