// Issue 21: after a refused save the focus goes to the first invalid field, which is marked
// aria-invalid and described by its message (a taken e-mail too, not only a banner); a delete
// dialog opens with the focus on Cancel, so Enter by habit deletes nothing.
import path from 'node:path'
import t from 'tap'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'

t.setTimeout(120_000)

t.test('focus after validation errors and in delete dialogs', async (t) => {
  const { baseUrl, browser, app } = await startBrowserSession(t)
  const admin = await signedInPage(browser, baseUrl, 'admin@example.com')
  await admin.setViewportSize({ width: 1366, height: 900 })
  const focused = () => admin.evaluate(() => document.activeElement?.id ?? '')

  await admin.goto('/admin/users/u-001')
  await admin.getByLabel('Name').fill('')
  await admin.getByRole('button', { name: 'Save changes' }).click()
  await admin.locator('#field-name-error').waitFor()
  t.equal(await focused(), 'field-name', 'the focus is on the empty name')
  t.equal(await admin.locator('#field-name').getAttribute('aria-invalid'), 'true')
  t.match(await admin.locator('#field-name').getAttribute('aria-describedby'), /\bfield-name-error\b/)

  await admin.getByLabel('Name').fill('Olivia Hughes')
  await admin.getByLabel('E-mail address').fill('manager@example.com')
  await admin.getByRole('button', { name: 'Save changes' }).click()
  await admin.locator('#field-email-error').waitFor()
  t.equal(await admin.locator('#field-email-error').innerText(), 'The e-mail manager@example.com is already in use', 'the message is next to the field')
  t.equal(await focused(), 'field-email', 'the focus is on the taken e-mail')
  t.equal(await admin.locator('#field-email').getAttribute('aria-invalid'), 'true')
  t.match(await admin.locator('#field-email').getAttribute('aria-describedby'), /\bfield-email-error\b/)
  t.equal(await admin.getByLabel('E-mail address').inputValue(), 'manager@example.com', 'what was typed stays')
  await admin.screenshot({ path: path.join(SCREENSHOTS, 'people-edit-email-taken-1366.png') })

  await admin.goto('/admin/users?search=noah')
  await admin.getByRole('button', { name: 'Delete Noah Silva' }).click()
  const dialog = admin.locator('dialog#modal')
  await dialog.getByText('Delete Noah Silva?').waitFor()
  t.equal(await admin.evaluate(() => document.activeElement?.textContent?.trim()), 'Cancel', 'the safe button has the focus')
  await admin.keyboard.press('Enter')
  await dialog.waitFor({ state: 'hidden' })
  t.equal(await admin.locator('tbody tr').count(), 1, 'Enter deleted nothing')
  t.ok(app)
  t.same(pageErrors(admin), [])
})
