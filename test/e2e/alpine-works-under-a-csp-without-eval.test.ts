// Issue 40 item 9: the CSP allows no 'unsafe-eval' and Alpine is its CSP build. With the CSP
// enforced (no bypass), the main pages as admin (and the signer page as staff) report no
// securitypolicyviolation, no Alpine expression error and no other script error; Alpine runs on
// each of them, and its interactions still work: the navigation drawer, the designer's controls.
// A delete dialog (dialogs.js) opens and closes under the same CSP.
import t from 'tap'
import type { Page } from 'playwright-core'
import { pageErrors, signedInPage, startBrowserSession } from '../helpers/browser.ts'
import { makeStampPng } from '../fixtures/pdf/stamp-image.ts'

t.setTimeout(300_000)

/** The page's error list (script errors, CSP refusals) also takes Alpine's warnings: an expression it cannot read is one. */
function watched(page: Page): string[] {
  const problems = pageErrors(page)
  page.on('console', (message) => {
    if (message.type() === 'warning' && /alpine/i.test(message.text())) problems.push(message.text())
  })
  return problems
}

/** Opens the URL, waits until it is quiet; answers whether Alpine started on the page's body. */
async function visit(page: Page, url: string): Promise<boolean> {
  await page.goto(url)
  await page.waitForLoadState('networkidle')
  return page.evaluate(() => '_x_dataStack' in document.body)
}

t.test('the main pages under the CSP: nothing refused, no Alpine error, Alpine still works', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const admin = await signedInPage(browser, baseUrl, 'admin@example.com')
  const problems = watched(admin)
  const csrf = await admin.evaluate(() => document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!)
  const created = await admin.request.post('/api/signing-sessions', { data: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'sequential' }, headers: { 'x-csrf-token': csrf } })
  t.equal(created.status(), 201, 'a signing session to look at')
  const session = ((await created.json()) as { data: { id: string } }).data

  // Every page each panel lists in its navigation, and the pages reached from them.
  const urls = new Set(['/dashboard', '/admin', '/app'])
  for (const home of ['/admin', '/app']) {
    await visit(admin, home)
    for (const href of await admin.locator('#sidebar a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!))) urls.add(href)
  }
  for (const url of ['/admin/users/new', '/admin/users/u-001', `/app/sessions/${session.id}`, '/app/sessions/new?template=contract&signable=contract-staff', '/verify']) urls.add(url)
  t.ok(urls.has('/admin/users') && urls.has('/app/sessions'), `the navigation was read (${urls.size} pages)`)
  for (const url of urls) {
    t.ok(await visit(admin, url), `${url}: Alpine started`)
    t.same(problems.splice(0), [], `${url}: nothing refused, no script error`)
  }

  // The drawer at phone size: opens with the focus inside, the page behind inert; Escape closes it
  // and gives the focus back; the close button and the backdrop close it too.
  await admin.setViewportSize({ width: 390, height: 844 })
  await visit(admin, '/admin')
  const toggle = admin.getByRole('button', { name: 'Open navigation' })
  await toggle.click()
  await admin.locator('[data-nav-backdrop]').waitFor({ state: 'visible', timeout: 5000 })
  t.equal(await toggle.getAttribute('aria-expanded'), 'true', 'the toggle says the drawer is open')
  t.ok(await admin.locator('#sidebar').isVisible(), 'the drawer is shown')
  t.ok(await admin.evaluate(() => document.getElementById('main')!.inert), 'the page behind is inert')
  await admin.waitForFunction(() => document.activeElement?.closest('#sidebar') !== null, null, { timeout: 5000 })
  await admin.keyboard.press('Escape')
  t.ok(await admin.locator('#sidebar').isHidden(), 'Escape closes it')
  t.equal(await toggle.getAttribute('aria-expanded'), 'false')
  t.notOk(await admin.evaluate(() => document.getElementById('main')!.inert), 'the page is no longer inert')
  t.ok(await admin.evaluate(() => document.activeElement?.classList.contains('nav-toggle')), 'the focus is back on the toggle')
  await toggle.click()
  await admin.locator('#sidebar').getByRole('button', { name: 'Close navigation' }).click()
  t.ok(await admin.locator('#sidebar').isHidden(), 'the close button closes it')
  await toggle.click()
  await admin.locator('[data-nav-backdrop]').click({ position: { x: 370, y: 400 } })
  t.ok(await admin.locator('#sidebar').isHidden(), 'a tap on the backdrop closes it')
  await admin.setViewportSize({ width: 1280, height: 860 })

  // A delete dialog opens and Cancel closes it, deleting nothing.
  await visit(admin, '/admin/users?search=noah')
  await admin.getByRole('button', { name: 'Delete Noah Silva' }).click()
  const dialog = admin.locator('dialog#modal')
  await dialog.getByText('Delete Noah Silva?').waitFor()
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await dialog.waitFor({ state: 'hidden' })
  t.equal(await admin.locator('tbody tr').count(), 1, 'Cancel deleted nothing')

  // The designer (an Alpine.data component): loads, zooms, selects a focused box.
  t.ok(await visit(admin, '/admin/signature-templates/payslip/design'), 'designer: Alpine started')
  const employee = admin.locator('[data-slot-box="employee"]')
  await employee.waitFor({ state: 'visible', timeout: 60_000 })
  t.same(problems.splice(0), [], 'designer loaded: no expression refused')
  await admin.waitForFunction(() => document.querySelector('[data-stage]')?.getAttribute('aria-busy') === 'false', null, { timeout: 60_000 })
  t.equal(await admin.locator('[data-zoom-fit]').getAttribute('aria-pressed'), 'true', 'fit width to begin with')
  await admin.locator('[data-zoom-100]').click()
  t.equal(await admin.locator('[data-zoom-100]').getAttribute('aria-pressed'), 'true', '100 % pressed')
  t.equal(await admin.locator('[data-zoom-fit]').getAttribute('aria-pressed'), 'false', 'fit width no longer')
  await admin.locator('[data-zoom-in]').click()
  t.equal(await admin.locator('[data-zoom-level]').innerText(), '125 %')
  await admin.locator('[data-zoom-fit]').click()
  await admin.locator('[data-slot-box="payroll"]').focus()
  await admin.locator('legend', { hasText: 'Selected slot: Payroll officer' }).waitFor()
  t.equal(await admin.locator('[data-field="x"]').getAttribute('aria-invalid'), 'false', 'no field error')
  await employee.focus()
  await admin.keyboard.press('Shift+ArrowUp')
  t.match(await admin.locator('[data-slot-row="employee"] [data-slot-state]').innerText(), 'unsaved changes', 'a key moves the focused box')
  await admin.locator('[data-undo]').click()
  t.same(problems.splice(0), [], 'designer: nothing refused, no script error')

  // The signer page, as a staff member with a signature in the library.
  const staff = await signedInPage(browser, baseUrl, 'staff@example.com')
  const staffProblems = watched(staff)
  const staffCsrf = await staff.evaluate(() => document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!)
  const saved = await staff.request.post('/api/signatures', { data: { label: 'Sam', image: `data:image/png;base64,${makeStampPng().toString('base64')}`, certificate: { mode: 'issue' } }, headers: { 'x-csrf-token': staffCsrf } })
  t.equal(saved.status(), 201, 'a signature in the library')
  await visit(staff, '/app/my-signatures')
  await staff.locator('[data-sign-link="payslip/payslip-staff-2026-03"]').click()
  await staff.locator('[data-marker="employee"]').waitFor()
  await staff.waitForLoadState('networkidle')
  t.ok(await staff.evaluate(() => '_x_dataStack' in document.body), 'signer page: Alpine started')
  t.same(staffProblems.splice(0), [], 'signer page: nothing refused, no script error')
})
