// Issue 21, polish of My signatures: Rename and Revoke ask in the app's own dialog (not
// window.prompt/confirm), the certificate is shown by its holder's name rather than a raw DN, and
// revoking the primary signature makes the other one primary.
import path from 'node:path'
import t from 'tap'
import { seriousAxeViolations } from '../helpers/axe.ts'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'
import { makeStampPng } from '../fixtures/pdf/stamp-image.ts'

t.setTimeout(90_000)

t.test('staff: rename and revoke through the app dialog; the primary passes to the other signature', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const page = await signedInPage(browser, baseUrl, 'staff@example.com', { bypassCSP: true })
  const nativeDialogs: string[] = []
  page.on('dialog', (dialog) => { nativeDialogs.push(dialog.type()); void dialog.dismiss() })
  await page.goto('/app/my-signatures')
  const image = `data:image/png;base64,${makeStampPng().toString('base64')}`
  for (const label of ['Full name', 'Initials']) {
    const status = await page.evaluate(async ({ label, image }) => (await fetch('/api/signatures', {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': (window as unknown as { csrfToken(): string }).csrfToken() },
      body: JSON.stringify({ label, image, certificate: { mode: 'issue' } }),
    })).status, { label, image })
    t.equal(status, 201, `${label} created`)
  }
  await page.reload()
  const first = page.locator('[data-signature]').filter({ hasText: 'Full name' })
  await first.waitFor()
  t.match(await first.locator('.mysig-meta').innerText(), /^Issued certificate for Sam Staff · valid until/, 'the holder by name, no "CN="')

  await first.getByRole('button', { name: 'Rename' }).click()
  const dialog = page.locator('dialog#modal')
  await dialog.getByRole('heading', { name: 'Rename “Full name”' }).waitFor()
  t.equal(await page.evaluate(() => (document.activeElement as HTMLInputElement).value), 'Full name', 'the name is ready to edit')
  t.same(await seriousAxeViolations(page), [], 'the dialog passes axe')
  await page.screenshot({ path: path.join(SCREENSHOTS, 'my-signatures-rename-dialog.png') })
  await dialog.getByLabel('New name').fill('Signature')
  await dialog.getByRole('button', { name: 'Rename' }).click()
  const renamed = page.locator('[data-signature]').filter({ hasText: 'Signature' }).first()
  await page.locator('[data-signature] h3', { hasText: /^Signature/ }).waitFor()

  await renamed.getByRole('button', { name: 'Revoke' }).click()
  await dialog.getByRole('heading', { name: 'Revoke “Signature”?' }).waitFor()
  t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Cancel', 'the safe choice has the focus')
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'hidden' })
  t.equal(await page.locator('[data-signature].is-revoked').count(), 0, 'Escape revokes nothing')
  await renamed.getByRole('button', { name: 'Revoke' }).click()
  await dialog.getByRole('button', { name: 'Revoke' }).click()
  await page.locator('[data-signature].is-revoked').waitFor()
  const initials = page.locator('[data-signature]').filter({ hasText: 'Initials' })
  await initials.locator('.badge', { hasText: 'primary' }).waitFor()
  t.pass('Initials became the primary signature')
  t.same(nativeDialogs, [], 'no window.prompt or window.confirm')
  t.same(pageErrors(page), [])
})
