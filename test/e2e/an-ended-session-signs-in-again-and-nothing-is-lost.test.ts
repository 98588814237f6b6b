// Issue 21: the session ends while a page is open (cookie gone) or its CSRF token goes stale (signed
// in again in another tab). Save, Search and Delete on People, the designer's Save and the signer's
// Finish & Save then open a "Sign in again" dialog (or, for a stale token alone, renew it silently)
// and send the same request again: what was typed, moved or placed is not lost.
import path from 'node:path'
import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'
import { makeStampPng } from '../fixtures/pdf/stamp-image.ts'

t.setTimeout(240_000)

/** The session ends: the browser loses its cookie, the page stays as it is. */
const endSession = (page: Page) => page.context().clearCookies()

async function signInAgain(t: Test, page: Page, shot?: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Sign in again' })
  await dialog.waitFor()
  t.match(await dialog.getByLabel('E-mail address').inputValue(), /^[a-z]+@example\.com$/, 'the e-mail is filled in')
  t.ok(await page.evaluate(() => document.activeElement?.getAttribute('name') === 'password'), 'the focus is on the password')
  if (shot) await page.screenshot({ path: path.join(SCREENSHOTS, shot) })
  await dialog.getByLabel('Password').fill('password')
  await dialog.getByRole('button', { name: 'Sign in and continue' }).click()
  await dialog.waitFor({ state: 'hidden' })
}


t.test('an ended session: sign in again in a dialog, the same request goes again', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const admin = await signedInPage(browser, baseUrl, 'admin@example.com')
  await admin.setViewportSize({ width: 1366, height: 900 })

  await t.test('People: Save keeps the typed name; a wrong password is said in the dialog', async (t) => {
    await admin.goto('/admin/users/u-001')
    await admin.getByLabel('Name').fill('Olivia Kept')
    await endSession(admin)
    await admin.getByRole('button', { name: 'Save changes' }).click()
    const dialog = admin.getByRole('dialog', { name: 'Sign in again' })
    await dialog.waitFor()
    await dialog.getByLabel('Password').fill('wrong')
    await dialog.getByRole('button', { name: 'Sign in and continue' }).click()
    await dialog.locator('[data-sign-in-error]').waitFor()
    t.equal(await dialog.locator('[data-sign-in-error]').innerText(), 'Wrong e-mail or password')
    t.equal(await dialog.getByLabel('Password').getAttribute('aria-invalid'), 'true')
    t.equal(admin.url(), `${baseUrl}/admin/users/u-001`, 'still on the page, not sent to /login')
    await signInAgain(t, admin, 'session-ended-sign-in-again-1366.png')
    await admin.getByText('Saved.').waitFor()
    t.equal(await admin.getByLabel('Name').inputValue(), 'Olivia Kept', 'the typed name is kept')
    t.equal(await admin.locator('h1#record-title').innerText(), 'Olivia Kept', 'and saved')
  })

  await t.test('People: Search and Delete go through after signing in again', async (t) => {
    await admin.goto('/admin/users')
    await endSession(admin)
    await admin.getByLabel('Search by name or e-mail').fill('noah')
    await signInAgain(t, admin)
    await admin.waitForURL(/search=noah/)
    t.equal(await admin.locator('tbody tr').count(), 1, 'the search ran')
    t.equal(await admin.getByLabel('Search by name or e-mail').inputValue(), 'noah')
    await endSession(admin)
    await admin.getByRole('button', { name: 'Delete Noah Silva' }).click()
    await signInAgain(t, admin)
    const modal = admin.locator('dialog#modal')
    await modal.getByText('Delete Noah Silva?').waitFor()
    await endSession(admin)
    await modal.getByRole('button', { name: 'Delete' }).click()
    await signInAgain(t, admin)
    await admin.getByText('Deleted Noah Silva.').waitFor()
    await admin.locator('[data-empty-state]').waitFor()
    t.equal(await admin.locator('tbody tr[data-row-id]').count(), 0, 'Noah is gone from the list')
  })

  await t.test('a stale CSRF token (signed in again in another tab) is renewed without asking', async (t) => {
    await admin.goto('/admin/users/u-001')
    // Signed in again elsewhere (the same browser, as another tab would): a new session, a new token.
    const again = await admin.request.post('/api/auth/login', { data: { email: 'admin@example.com', password: 'password' } })
    t.equal(again.status(), 200)
    await admin.getByLabel('Name').fill('Olivia Fresh')
    const refused = admin.waitForResponse((r) => r.url().endsWith('/admin/users/u-001') && r.request().method() !== 'GET' && r.status() === 403)
    await admin.getByRole('button', { name: 'Save changes' }).click()
    t.equal((await refused).headers()['x-error-code'], 'ERR_CSRF', 'the first attempt met the stale token')
    await admin.getByText('Saved.').waitFor()
    t.equal(await admin.locator('h1#record-title').innerText(), 'Olivia Fresh')
    t.notOk(await admin.evaluate(() => document.querySelector<HTMLDialogElement>('#sign-in-again')?.open ?? false), 'no dialog for a token alone')
  })

  await t.test('designer: the moved box is saved after signing in again', async (t) => {
    await admin.goto('/admin/signature-templates')
    await Promise.all([admin.waitForURL('**/daily-time-record/design'), admin.locator('[data-template="daily-time-record"] [data-designer-link]').click()])
    const box = admin.locator('[data-slot-box="employee"]')
    await box.waitFor({ state: 'visible', timeout: 60_000 })
    await box.focus()
    for (let i = 0; i < 5; i++) await admin.keyboard.press('ArrowRight')
    await endSession(admin)
    await admin.locator('[data-save-slot="employee"]').click()
    await signInAgain(t, admin)
    await admin.locator('[data-slot-feedback="employee"]', { hasText: 'Saved' }).waitFor()
    const metaUrl = (await admin.locator('[data-designer]').getAttribute('data-meta-url'))!
    const meta = (await (await admin.request.get(metaUrl)).json()) as { slots: Array<{ key: string; x: number; saved: boolean }> }
    t.match(meta.slots.find((s) => s.key === 'employee'), { x: 72 + 5, saved: true }, 'stored where it was moved (default x 72)')
  })

  await t.test('signer: Finish & Save signs after signing in again, the stamp where it was placed', async (t) => {
    const staff = await signedInPage(browser, baseUrl, 'staff@example.com')
    const csrf = await staff.evaluate(() => document.querySelector('meta[name="csrf-token"]')!.getAttribute('content')!)
    const created = await staff.request.post('/api/signatures', { data: { label: 'Sam', image: `data:image/png;base64,${makeStampPng().toString('base64')}`, certificate: { mode: 'issue' } }, headers: { 'x-csrf-token': csrf } })
    t.equal(created.status(), 201)
    await staff.getByRole('navigation', { name: 'Everywhere' }).getByRole('link', { name: 'My signatures' }).click()
    await staff.locator('[data-sign-link="daily-time-record/dtr-staff-2026-03"]').click()
    await staff.locator('[data-chip="employee"]').click()
    await staff.locator('[data-box="employee"]').focus()
    await staff.keyboard.press('Shift+ArrowRight')
    await endSession(staff)
    const sent = staff.waitForRequest((r) => r.url().endsWith('/signer/finalize'))
    await staff.getByRole('button', { name: 'Finish & Save' }).click()
    const first = (await sent).postDataJSON() as { placements: Array<{ x: number }> }
    await signInAgain(t, staff)
    await staff.locator('[data-download]').waitFor({ timeout: 60_000 })
    t.match(await staff.locator('[data-status]').innerText(), /^Signed on/)
    t.equal(first.placements[0]!.x, 72 + 5 + 10, 'the placement sent is the moved one (the designer saved x 77)')
    t.same(pageErrors(staff).filter((e) => !/status of 401/.test(e)), [])
  })

  t.same(pageErrors(admin).filter((e) => !/status of (401|403)/.test(e)), [])
})
