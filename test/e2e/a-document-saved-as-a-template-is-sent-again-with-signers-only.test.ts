// Issue 38, item 6 in Chromium: on "New document" an admin uploads a PDF, adds a signer by e-mail,
// places a signature and a date field, and saves it as a template. The next time the page lists
// the template: one click opens its PDF with its fields, a person fills its one role, Send makes
// the session. axe-clean at 1280 and 390 px.
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
  t.same(pageErrors(admin), [], 'no script errors')
})
