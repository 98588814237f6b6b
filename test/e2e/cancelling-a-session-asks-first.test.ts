// Issue 39, item 5: "Cancel the session" was one click, its reason box and red button always open
// in the Signers card. Now the reason and the button sit behind "Cancel this session…", and the
// button asks first in the app's dialog, as delete does: Escape or "Keep the session" changes
// nothing; confirming cancels, and the reason is in the history.
import path from 'node:path'
import t from 'tap'
import { seriousAxeViolations } from '../helpers/axe.ts'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'

t.setTimeout(300_000)

t.test('admin: cancelling a session is confirmed in the app dialog first', async (t) => {
  const { baseUrl, browser, app } = await startBrowserSession(t)
  const page = await signedInPage(browser, baseUrl, 'admin@example.com', { bypassCSP: true })
  const nativeDialogs: string[] = []
  page.on('dialog', (dialog) => { nativeDialogs.push(dialog.type()); void dialog.dismiss() })
  const created = await page.request.post('/api/signing-sessions', { data: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'sequential' }, timeout: 150_000 })
  t.equal(created.status(), 201)
  const id = (await created.json()).data.id as string
  const status = async () => (await app.signature.database.db.selectFrom('signing_sessions').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status

  await page.goto(`/app/sessions/${id}`)
  const button = page.getByRole('button', { name: 'Cancel the session' })
  t.notOk(await button.isVisible(), 'the red button is not out in the open')
  await page.getByText('Cancel this session…').click()
  await page.getByLabel('Why (optional)').fill('Wrong month')
  await button.click()
  const dialog = page.locator('dialog#modal')
  await dialog.getByRole('heading', { name: 'Cancel this session?' }).waitFor()
  t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Keep the session', 'the safe choice has the focus')
  t.same(await seriousAxeViolations(page), [], 'the dialog passes axe')
  await page.screenshot({ path: path.join(SCREENSHOTS, 'session-cancel-confirm.png') })
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'hidden' })
  t.equal(await status(), 'active', 'Escape cancels nothing')
  await button.click()
  await dialog.getByRole('button', { name: 'Keep the session' }).click()
  await dialog.waitFor({ state: 'hidden' })
  t.equal(await status(), 'active', '"Keep the session" cancels nothing')

  await button.click()
  await dialog.getByRole('button', { name: 'Cancel the session' }).click()
  await page.getByText('The session is cancelled.').waitFor()
  t.equal(await status(), 'cancelled')
  await page.locator('[data-timeline]', { hasText: 'Wrong month' }).waitFor()
  t.pass('the reason is in the history')
  t.same(await seriousAxeViolations(page), [])
  t.same(nativeDialogs, [], 'no window.confirm')
  t.same(pageErrors(page), [])
})
