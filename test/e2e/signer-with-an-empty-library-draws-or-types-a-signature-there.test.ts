// Issue 21, the signer page: with an empty library the user draws or types a signature right
// there; it is kept in the library (with an issued certificate) and the document is signed with it.
// Since issue 39 item 6 the document comes first: the signature is asked for, in a dialog, at the
// first field clicked, then placed there.
import path from 'node:path'
import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { seriousAxeViolations } from '../helpers/axe.ts'
import { pageErrors, SCREENSHOTS, signedInPage, signedPageShown, startBrowserSession } from '../helpers/browser.ts'

t.setTimeout(120_000)

interface LibrarySignature { uuid: string; label: string; status: string }
const library = async (page: Page) => ((await (await page.request.get('/api/signatures')).json()) as { data: LibrarySignature[] }).data

/** The dialog kept the signature and placed it: Finish signs. */
async function signPlacedField(t: Test, page: Page): Promise<void> {
  await page.locator('[data-box="employee"] img').waitFor({ timeout: 60_000 })
  await page.waitForURL(/\/sign\/[0-9a-f-]{36}\?signable=/)
  await page.getByRole('button', { name: 'Finish & Save' }).click()
  await page.locator('[data-download]').waitFor({ timeout: 60_000 })
  t.match(await page.locator('[data-status]').innerText(), /Signed/)
  await signedPageShown(page)
}

t.test('no signature yet: draw one on the signer page, sign; then type one, sign', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const page = await signedInPage(browser, baseUrl, 'staff@example.com', { bypassCSP: true })
  t.same(await library(page), [], 'the library starts empty')

  await page.goto('/app/my-signatures')
  const dtr = page.locator('[data-sign-link="daily-time-record/dtr-staff-2026-03"]')
  await dtr.waitFor()
  t.match(await dtr.getAttribute('href'), /\/sign\/new\?signable=dtr-staff-2026-03$/, 'an empty library still offers Sign')
  await dtr.click()
  await page.waitForURL(/\/daily-time-record\/sign\/new\?signable=dtr-staff-2026-03/)
  await page.locator('[data-marker="employee"]').waitFor()
  await page.locator('[data-chip="employee"]').click()
  await page.getByRole('heading', { name: 'Your signature' }).waitFor()
  t.same(await seriousAxeViolations(page), [], 'axe: no serious or critical violation')

  // Keeping nothing is refused next to the pad.
  await page.getByRole('button', { name: 'Sign with it' }).click()
  await page.locator('[data-error-for="pad"]', { hasText: 'Draw your signature first.' }).waitFor()
  const pad = page.locator('[data-pad]')
  const box = (await pad.boundingBox())!
  await page.mouse.move(box.x + 40, box.y + 120)
  await page.mouse.down()
  for (const [x, y] of [[70, 50], [100, 130], [130, 60], [160, 120], [220, 70], [280, 110]] as const) await page.mouse.move(box.x + x, box.y + y, { steps: 5 })
  await page.mouse.up()
  await page.screenshot({ path: path.join(SCREENSHOTS, 'signer-empty-library-drawn.png'), fullPage: true })
  await page.getByRole('button', { name: 'Sign with it' }).click()
  await signPlacedField(t, page)
  const afterDraw = await library(page)
  t.match(afterDraw, [{ label: 'My signature', status: 'active' }], 'the drawn signature is kept in the library')
  t.match(page.url(), afterDraw[0]!.uuid, 'and the page signed with it')

  // Typed: the library emptied again (revoked), the payslip opens the same page.
  const csrf = await page.evaluate(() => document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!)
  t.equal((await page.request.delete(`/api/signatures/${afterDraw[0]!.uuid}`, { headers: { 'x-csrf-token': csrf } })).status(), 204)
  await page.goto('/app/my-signatures')
  const payslip = page.locator('[data-sign-link="payslip/payslip-staff-2026-03"][href*="/sign/new"]')
  await payslip.waitFor()
  await payslip.click()
  await page.waitForURL(/\/payslip\/sign\/new\?/)
  await page.getByRole('button', { name: 'Next field' }).click()
  await page.getByRole('heading', { name: 'Your signature' }).waitFor()
  await page.getByLabel('Type your name').check()
  const typed = page.getByLabel('Your name as you sign it')
  t.equal(await typed.inputValue(), 'Sam Staff', 'the name is offered')
  await typed.fill('Sam S. Staff')
  await page.waitForFunction(() => document.fonts.check('48px "Dancing Script"', 'Sam'))
  t.equal(await page.locator('[data-preview]').evaluate((el) => getComputedStyle(el).fontFamily), '"Dancing Script", cursive')
  t.equal((await page.request.get('/app/signature-assets/fonts/dancing-script-latin-400-normal.woff2')).status(), 200, 'the face is served by the app, no CDN')
  t.same(await seriousAxeViolations(page), [], 'axe: no serious or critical violation in the typed mode')
  await page.screenshot({ path: path.join(SCREENSHOTS, 'signer-empty-library-typed.png') })
  await page.setViewportSize({ width: 390, height: 844 })
  t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no horizontal scroll at 390 px')
  await page.screenshot({ path: path.join(SCREENSHOTS, 'signer-empty-library-typed-390.png') })
  await page.setViewportSize({ width: 1280, height: 860 })
  await page.getByLabel('Name of this signature in your library').fill('Typed')
  await page.getByRole('button', { name: 'Sign with it' }).click()
  await signPlacedField(t, page)
  t.match((await library(page)).filter((s) => s.status === 'active'), [{ label: 'Typed' }], 'the typed signature is kept too')
  t.same(pageErrors(page), [])
})
