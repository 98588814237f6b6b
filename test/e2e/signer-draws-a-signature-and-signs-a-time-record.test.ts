import { readFile } from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
import { pdfsig } from '../fixtures/pdf/checkers.ts'
import { pageErrors, SCREENSHOTS, signedInPage, signedPageShown, startBrowserSession } from '../helpers/browser.ts'

t.test('staff draws a signature on My signatures, signs their daily time record, downloads it: pdfsig says valid', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const page = await signedInPage(browser, baseUrl, 'staff@example.com')

  const topbar = page.getByRole('navigation', { name: 'Everywhere' })
  await topbar.getByRole('link', { name: 'My signatures' }).click()
  await page.waitForURL('**/app/my-signatures')
  await page.getByText('No signatures yet').waitFor()
  await page.screenshot({ path: path.join(SCREENSHOTS, 'my-signatures-empty.png'), fullPage: true })
  await page.getByLabel('Name').fill('Sam, full')
  // Draw with the mouse on the signature_pad canvas: a few strokes.
  const pad = page.locator('[data-pad]')
  const box = (await pad.boundingBox())!
  const stroke = async (points: Array<[number, number]>) => {
    await page.mouse.move(box.x + points[0]![0], box.y + points[0]![1])
    await page.mouse.down()
    for (const [x, y] of points.slice(1)) await page.mouse.move(box.x + x, box.y + y, { steps: 6 })
    await page.mouse.up()
  }
  await stroke([[40, 120], [70, 50], [100, 130], [130, 60], [160, 120], [200, 70], [240, 125]])
  await stroke([[260, 90], [320, 80], [380, 100], [440, 70]])
  await page.screenshot({ path: path.join(SCREENSHOTS, 'my-signatures-drawn.png'), fullPage: true })
  await page.getByRole('button', { name: 'Save signature' }).click()
  await page.locator('[data-signature] h3', { hasText: 'Sam, full' }).waitFor()
  t.match(await page.locator('[data-status]').innerText(), /Saved/)
  // Before the list is loaded again the link still opens the page that makes a first signature.
  const signLink = page.locator('[data-sign-link="daily-time-record/dtr-staff-2026-03"]:not([href*="/sign/new"])')
  await signLink.waitFor()
  await page.screenshot({ path: path.join(SCREENSHOTS, 'my-signatures-created.png'), fullPage: true })

  await signLink.click()
  await page.waitForURL(/\/app\/signature-templates\/daily-time-record\/sign\/[0-9a-f-]{36}\?signable=dtr-staff-2026-03/)
  await page.locator('[data-chip="employee"]').waitFor()
  await page.locator('img.signer-page').evaluate((img: HTMLImageElement) => img.complete || new Promise((r) => img.addEventListener('load', r)))
  t.equal(await page.locator('[data-chip]').count(), 1, 'only the slot the employee signs')
  t.ok(await page.locator('[data-page-select]').isHidden(), 'no page selector for a one-page template')
  t.equal(await page.locator('.signer-strip-item.is-active').count(), 1)
  t.ok(await page.getByRole('button', { name: 'Finish & Save' }).isDisabled(), 'nothing placed yet')
  await page.screenshot({ path: path.join(SCREENSHOTS, 'signer-opened.png'), fullPage: true })

  await page.locator('[data-chip="employee"]').click()
  t.equal(await page.locator('[data-chip="employee"]').getAttribute('aria-pressed'), 'true')
  await page.locator('[data-box="employee"] img').waitFor()
  await page.screenshot({ path: path.join(SCREENSHOTS, 'signer-placed.png'), fullPage: true })
  // Click again removes it, and once more brings it back.
  await page.locator('[data-chip="employee"]').click()
  t.equal(await page.locator('[data-box="employee"]').count(), 0)
  await page.locator('[data-chip="employee"]').click()

  await page.getByRole('button', { name: 'Finish & Save' }).click()
  const link = page.locator('[data-download]')
  await link.waitFor({ timeout: 60_000 })
  t.match(await page.locator('[data-status]').innerText(), /Signed/)
  // The page now shows the signed document (the stamp drawn by the PDF), not a box over the unsigned page.
  t.match(await signedPageShown(page), /^\/api\/signatures\/[0-9a-f-]{36}\/pages\/1$/)
  t.equal(await page.locator('.signer-box').count(), 0, 'no boxes left over the signed page')
  t.ok(await page.locator('[data-chip="employee"]').isDisabled(), 'nothing more to place')
  t.equal(await page.locator('[data-cancel]').innerText(), 'Done', 'nothing left to cancel')
  await page.screenshot({ path: path.join(SCREENSHOTS, 'signer-signed.png'), fullPage: true })

  const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
  const pdf = await readFile((await download.path())!)
  const { signatures, output } = await pdfsig(pdf)
  // B-LTA (issue 18): the signature, then a document timestamp over the whole file (which pdfsig 22.12 lists but cannot check).
  t.same(signatures.map((s) => s.fieldName), ['Signature', 'Document timestamp'], output)
  t.equal(signatures[0]!.validation, 'Signature is Valid.')
  t.ok(signatures[1]!.totalDocumentSigned)
  t.equal(signatures[0]!.commonName, 'Sam Staff')

  // Issue 20, item 4: the signed record stays findable, and a second signing is never silent.
  await topbar.getByRole('link', { name: 'My signatures' }).click()
  const row = page.locator('[data-record="dtr-staff-2026-03"]')
  await row.locator('[data-signed-slot="employee"]').waitFor()
  t.match(await row.locator('[data-signed-slot="employee"]').innerText(), /^Employee: signed on .+ by you$/)
  t.equal(await row.locator('[data-download]').count(), 1, 'the signed PDF is one click away')
  t.equal(await row.locator('[data-sign-link]').innerText(), 'Sign again', 'no plain second Sign')
  await page.screenshot({ path: path.join(SCREENSHOTS, 'my-signatures-signed-record.png'), fullPage: true })
  await row.locator('[data-sign-link]').click()
  await page.locator('[data-chip="employee"]').click()
  await page.getByRole('button', { name: 'Finish & Save' }).click()
  const again = page.getByRole('dialog', { name: 'Sign again?' })
  await again.waitFor()
  t.match(await again.locator('[data-again-message]').innerText(), /^Employee: signed on .+\. Sign again\?$/, 'asked before anything is sent')
  await again.getByRole('button', { name: 'Sign again' }).click()
  t.match(await again.locator('[data-again-error]').innerText(), 'Say in a few words why you sign again.', 'no reason, no signing')
  await page.screenshot({ path: path.join(SCREENSHOTS, 'signer-sign-again-dialog.png') })
  await again.getByLabel('Why do you sign again?').fill('The hours of the 3rd were corrected')
  await again.getByRole('button', { name: 'Sign again' }).click()
  await page.locator('[data-download]').waitFor({ timeout: 60_000 })
  t.match(await page.locator('[data-status]').innerText(), /Signed/)
  await topbar.getByRole('link', { name: 'My signatures' }).click()
  await row.locator('[data-signed-slot="employee"]').waitFor()
  t.match(await row.locator('[data-signed-slot="employee"]').innerText(), /by you \(version 2\)$/)
  t.same(pageErrors(page), [])
})
