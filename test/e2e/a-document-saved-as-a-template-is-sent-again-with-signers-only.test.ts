// Issue 38, item 6 in Chromium: on "New document" an admin uploads a PDF, adds a signer by e-mail,
// places a signature and a date field, and saves it as a template. The next time the page lists
// the template: one click opens its PDF with its fields, a person fills its one role, Send makes
// the session. Then the template is renamed and deleted from the same list, in the app's dialog,
// by keyboard: the session already sent from it is untouched. axe-clean at 1280 and 390 px.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { makePdf } from '../fixtures/pdf/make-pdf.ts'
import { pageErrors, passes, signedInPage, startBrowserSession } from '../helpers/browser.ts'

t.setTimeout(300_000)

t.test('save as template, then the template, a signer and Send', async (t) => {
  const { baseUrl, browser, app } = await startBrowserSession(t)
  const folder = await mkdtemp(path.join(tmpdir(), 'doc-template-ui-'))
  t.teardown(() => rm(folder, { recursive: true, force: true }))
  const pdfPath = path.join(folder, 'nda.pdf')
  await writeFile(pdfPath, await makePdf())

  const admin = await signedInPage(browser, baseUrl, 'admin@example.com', { bypassCSP: true })
  await admin.goto('/app/documents/new')
  await admin.locator('[data-drop-zone]').waitFor()
  t.notOk(await admin.locator('[data-templates]').isVisible(), 'no saved template yet')
  await admin.locator('[data-file-input]').setInputFiles(pdfPath)
  await admin.locator('[data-editor-heading]').waitFor()
  await admin.waitForFunction(() => { const i = document.querySelector<HTMLImageElement>('[data-page-image]'); return !!i && i.complete && i.naturalWidth > 0 })
  await admin.locator('[data-external-name]').fill('Erin External')
  await admin.locator('[data-external-email]').fill('erin@example.net')
  await admin.locator('[data-add-external]').click()
  await admin.locator('[data-palette] [data-type="signature"]').click()
  await admin.locator('[data-palette] [data-type="date"]').click()

  // Saving without a name says so; with one, it is saved.
  await admin.locator('[data-save-template]').click()
  t.match(await admin.locator('[data-save-template-error]').innerText(), /Give the template a name/)
  await admin.locator('[data-template-name]').fill('Mutual NDA')
  await admin.locator('[data-save-template]').click()
  await admin.locator('[data-save-template-status]:not(:empty)').waitFor()
  t.match(await admin.locator('[data-save-template-status]').innerText(), /Saved as the template “Mutual NDA”/)
  const row = await app.signature.database.db.selectFrom('document_templates').selectAll().executeTakeFirstOrThrow()
  t.equal(row.key, 'mutual-nda')
  t.same(JSON.parse(row.fields).map((f: { type: string; signer: number }) => [f.type, f.signer]), [['signature', 0], ['date', 0]])

  // The next contract of that kind: the template, a person, Send.
  await admin.goto('/app/documents/new')
  const choice = admin.locator('[data-template="mutual-nda"]')
  await choice.waitFor()
  await passes(t, admin, 'new-document-templates-1280')
  await choice.click()
  await admin.locator('[data-editor-heading]').waitFor()
  await admin.waitForFunction(() => { const i = document.querySelector<HTMLImageElement>('[data-page-image]'); return !!i && i.complete && i.naturalWidth > 0 })
  t.equal(await admin.locator('.doc-box').count(), 2, 'the template\'s two fields on the page')
  t.notOk(await admin.locator('[data-palette]').isVisible(), 'its fields are its own: no palette')
  t.notOk(await admin.locator('[data-save-template-section]').isVisible())
  t.match(await admin.locator('.doc-signer').first().innerText(), /Signer 1[^]*not chosen yet/)
  await admin.locator('[data-send]').click()
  t.match(await admin.locator('[data-send-problems]').innerText(), /Choose who signs as Signer 1/)
  const value = await admin.locator('[data-person-select] option', { hasText: 'staff@example.com' }).getAttribute('value')
  await admin.locator('[data-person-select]').selectOption(value!)
  await admin.locator('[data-add-person]').click()
  t.match(await admin.locator('.doc-signer').first().innerText(), /staff@example\.com/)
  await passes(t, admin, 'new-document-from-template-1280')
  await admin.setViewportSize({ width: 390, height: 844 })
  await passes(t, admin, 'new-document-from-template-390')
  await admin.setViewportSize({ width: 1280, height: 860 })
  await admin.locator('[data-send]').click()
  await admin.waitForURL(/\/app\/sessions\/[^/]+$/)
  const session = await app.signature.database.db.selectFrom('signing_session_requests').select(['signer_user_id', 'fields']).executeTakeFirstOrThrow()
  t.equal(session.signer_user_id, 'u-staff')
  t.same(JSON.parse(session.fields!).map((f: { type: string }) => f.type), ['signature', 'date'])

  // Rename and Delete beside the template, named after it, used from the keyboard.
  const nativeDialogs: string[] = []
  admin.on('dialog', (dialog) => { nativeDialogs.push(dialog.type()); void dialog.dismiss() })
  await admin.goto('/app/documents/new')
  const rename = admin.getByRole('button', { name: 'Rename the template Mutual NDA' })
  await rename.waitFor()
  await rename.focus()
  await admin.keyboard.press('Enter')
  const dialog = admin.locator('dialog#modal')
  await dialog.getByRole('heading', { name: 'Rename “Mutual NDA”' }).waitFor()
  t.equal(await admin.evaluate(() => (document.activeElement as HTMLInputElement).value), 'Mutual NDA', 'the name is ready to edit')
  await admin.keyboard.press('Control+A')
  await admin.keyboard.type('Mutual NDA 2027')
  await admin.keyboard.press('Enter')
  await admin.locator('[data-templates-status]', { hasText: 'Renamed to “Mutual NDA 2027”.' }).waitFor()
  t.equal(await admin.locator('[data-template="mutual-nda"]').innerText(), 'Mutual NDA 2027', 'the list shows the new name')
  t.equal(await admin.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Rename the template Mutual NDA 2027', 'the focus is back on Rename')
  t.equal((await app.signature.database.db.selectFrom('document_templates').select(['key', 'label']).executeTakeFirstOrThrow()).label, 'Mutual NDA 2027')
  await passes(t, admin, 'new-document-template-actions-1280')
  await admin.setViewportSize({ width: 390, height: 844 })
  await passes(t, admin, 'new-document-template-actions-390')
  await admin.setViewportSize({ width: 1280, height: 860 })

  // Delete asks first; Escape keeps it.
  const remove = admin.getByRole('button', { name: 'Delete the template Mutual NDA 2027' })
  await remove.click()
  await dialog.getByRole('heading', { name: 'Delete the template “Mutual NDA 2027”?' }).waitFor()
  t.equal(await admin.evaluate(() => document.activeElement?.textContent), 'Cancel', 'the safe choice has the focus')
  await passes(t, admin, 'new-document-template-delete-dialog-1280')
  await admin.keyboard.press('Escape')
  await dialog.waitFor({ state: 'hidden' })
  t.equal(await admin.locator('[data-template="mutual-nda"]').count(), 1, 'Escape deletes nothing')
  await remove.click()
  await dialog.getByRole('button', { name: 'Delete' }).click()
  await admin.locator('[data-templates]').waitFor({ state: 'hidden' })
  t.equal(await admin.evaluate(() => document.activeElement?.hasAttribute('data-file-input')), true, 'the last one gone: the focus is on the upload')
  t.same(await app.signature.database.db.selectFrom('document_templates').selectAll().execute(), [], 'the row is gone')
  t.notOk(app.signature.registry.has('mutual-nda'), 'and the registry\'s entry')
  const sent = await app.signature.database.db.selectFrom('signing_sessions').select('status').executeTakeFirstOrThrow()
  t.equal(sent.status, 'active', 'the session sent from it is untouched')
  await admin.reload()
  await admin.locator('[data-drop-zone]').waitFor()
  t.notOk(await admin.locator('[data-templates]').isVisible(), 'not listed after a reload either')
  t.same(nativeDialogs, [], 'no window.prompt or window.confirm')
  t.same(pageErrors(admin), [], 'no script errors')
})
