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
  // The error appears with the swap; the focus moves once htmx has settled it (a moment later):
  // wait up to 5 s for the expected element, then read where the focus really is.
  const focusedAfterSettle = async (expected: string) => {
    await admin.waitForFunction((id) => document.activeElement?.id === id, expected, { timeout: 5_000 }).catch(() => {})
    return admin.evaluate(() => document.activeElement?.id ?? '')
  }

  await admin.goto('/admin/users/u-001')
  await admin.getByLabel('Name').fill('')
  await admin.getByRole('button', { name: 'Save changes' }).click()
  await admin.locator('#field-name-error').waitFor()
  t.equal(await focusedAfterSettle('field-name'), 'field-name', 'the focus is on the empty name')
  t.equal(await admin.locator('#field-name').getAttribute('aria-invalid'), 'true')
  t.match(await admin.locator('#field-name').getAttribute('aria-describedby'), /\bfield-name-error\b/)

  await admin.getByLabel('Name').fill('Olivia Hughes')
  await admin.getByLabel('E-mail address').fill('manager@example.com')
  await admin.getByRole('button', { name: 'Save changes' }).click()
  await admin.locator('#field-email-error').waitFor()
  t.equal(await admin.locator('#field-email-error').innerText(), 'The e-mail manager@example.com is already in use', 'the message is next to the field')
  t.equal(await focusedAfterSettle('field-email'), 'field-email', 'the focus is on the taken e-mail')
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
  // "Clear search" empties the box too, not only the table.
  await admin.getByLabel('Search by name or e-mail').fill('nobody-by-this-name')
  await admin.locator('[data-empty-state]').waitFor()
  await admin.getByRole('link', { name: 'Clear search' }).click()
  await admin.locator('tbody tr').nth(9).waitFor()
  t.equal(await admin.getByLabel('Search by name or e-mail').inputValue(), '', 'the old term is gone from the box')
  t.ok(app)
  t.same(pageErrors(admin), [])

  // My signatures: each mistake is said next to its control, which takes the focus; a refusal of
  // the server is said next to Save, not in the banner ~1,400 px above.
  const staff = await signedInPage(browser, baseUrl, 'staff@example.com')
  await staff.setViewportSize({ width: 1366, height: 900 })
  await staff.getByRole('navigation', { name: 'Everywhere' }).getByRole('link', { name: 'My signatures' }).click()
  await staff.waitForURL('**/app/my-signatures')
  await staff.getByRole('button', { name: 'Save signature' }).click()
  t.equal(await staff.locator('#mysig-label-error').innerText(), 'Give the signature a name.')
  t.equal(await staff.evaluate(() => document.activeElement?.id), 'mysig-label', 'the name field has the focus')
  t.equal(await staff.locator('#mysig-label').getAttribute('aria-describedby'), 'mysig-label-error')
  t.equal(await staff.locator('#mysig-label').getAttribute('aria-invalid'), 'true')
  await staff.getByLabel('Name', { exact: true }).fill('Sam')
  await staff.getByRole('button', { name: 'Save signature' }).click()
  t.equal(await staff.locator('#mysig-pad-error').innerText(), 'Draw your signature first.')
  t.ok(await staff.evaluate(() => document.activeElement?.hasAttribute('data-pad')), 'the drawing pad has the focus')
  t.ok(await staff.locator('#mysig-label-error').isHidden(), 'the fixed mistake is no longer shown')
  await staff.getByLabel('Upload a PKCS#12 file').check()
  const box = (await staff.locator('[data-pad]').boundingBox())!
  await staff.mouse.move(box.x + 40, box.y + 60)
  await staff.mouse.down()
  await staff.mouse.move(box.x + 200, box.y + 90, { steps: 8 })
  await staff.mouse.up()
  await staff.getByRole('button', { name: 'Save signature' }).click()
  t.equal(await staff.locator('#mysig-p12-error').innerText(), 'Choose a PKCS#12 file.')
  t.ok(await staff.evaluate(() => document.activeElement?.hasAttribute('data-p12-file')), 'the file input has the focus')
  const error = await staff.locator('#mysig-p12-error').boundingBox()
  t.ok(error && error.y > 0 && error.y < 900, 'the message is on screen, where the eye is')
  await staff.screenshot({ path: path.join(SCREENSHOTS, 'my-signatures-error-next-to-field-1366.png') })
  // A file that is no PKCS#12: the server refuses it; said next to Save.
  await staff.locator('[data-p12-file]').setInputFiles({ name: 'not.p12', mimeType: 'application/x-pkcs12', buffer: Buffer.from('not a certificate') })
  await staff.getByRole('button', { name: 'Save signature' }).click()
  await staff.locator('#mysig-form-error').waitFor()
  t.match(await staff.locator('#mysig-form-error').innerText(), /^Not saved: /)
  t.ok(await staff.locator('[data-status]').isHidden(), 'not in the banner at the top')
  t.same(pageErrors(staff).filter((e) => !/status of (400|422)/.test(e)), [])
})
