// Issue 38's path in Chromium, by clicking, with a real SMTP server: an admin uploads a PDF on
// "New document", adds a signer by e-mail and a user, drags a signature field for the outsider
// from the palette onto page 2, adds their date (by keyboard) and name fields, a signature field
// for the user, and sends. The outsider opens the link of their invitation (no account), gets the
// code by e-mail, types it, reads the document to its end (Sign waits until then), draws a
// signature and signs; the user signs from their Inbox. Everyone's completion mail carries the
// signed PDF: pdfsig finds every signature valid, pdftotext shows the name and the date filled in.
// Every page passes axe and fits at 1280 and 390 px.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import type { Browser, Page } from 'playwright-core'
import { makePdf } from '../fixtures/pdf/make-pdf.ts'
import { pdfsig, popplerText } from '../fixtures/pdf/checkers.ts'
import { startSmtpPeer, type ReceivedMail } from '../helpers/delivery-peers.ts'
import { pageErrors, passes, signedInPage, startBrowserSession } from '../helpers/browser.ts'

t.setTimeout(600_000)

const A4: [number, number] = [595.28, 841.89]
const OUTSIDER = { name: 'Erin External', email: 'erin.external@example.net' }
const PHONE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 860 }

/** The PDF attached to a mail (base64 in its application/pdf part). */
function attachedPdf(mail: ReceivedMail): Buffer | null {
  const part = /Content-Type: application\/pdf[^]*?\r?\n\r?\n([A-Za-z0-9+/=\r\n]+?)\r?\n(?:--|\r?\n)/i.exec(mail.raw)
  return part ? Buffer.from(part[1]!.replace(/\s+/g, ''), 'base64') : null
}

/** A page the browser shows while nothing is signed in (the outsider's). */
async function anonymousPage(browser: Browser, baseUrl: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: PHONE, bypassCSP: true })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource: the server responded with a status of (400|401|404|422)/.test(message.text())) errors.push(message.text())
  })
  ;(page as Page & { errors: string[] }).errors = errors
  return page
}

t.test('upload, place, send; an outsider signs from the mail with a code, a user from the Inbox; the PDF is valid', async (t) => {
  const smtp = await startSmtpPeer(t)
  process.env.SMTP_URL = smtp.url
  t.teardown(() => { delete process.env.SMTP_URL })
  const { baseUrl, browser } = await startBrowserSession(t)
  const folder = await mkdtemp(path.join(tmpdir(), 'docs-ui-'))
  t.teardown(() => rm(folder, { recursive: true, force: true }))
  const pdfPath = path.join(folder, 'employment-contract.pdf')
  await writeFile(pdfPath, await makePdf({ pages: 2, size: A4 }))
  const mail = async (test: (m: ReceivedMail) => boolean): Promise<ReceivedMail> => {
    for (let n = 1; ; n++) {
      const found = (await smtp.waitFor(n, 60_000)).find(test)
      if (found) return found
    }
  }

  // --- The admin: New document
  const admin = await signedInPage(browser, baseUrl, 'admin@example.com', { bypassCSP: true })
  await admin.goto('/app')
  await admin.locator('#sidebar').getByRole('link', { name: 'New document' }).click()
  await admin.waitForURL('**/app/documents/new')
  await admin.locator('[data-drop-zone]').waitFor()
  await passes(t, admin, 'new-document-upload-1280')

  await admin.locator('[data-file-input]').setInputFiles(pdfPath)
  await admin.locator('[data-editor-heading]').waitFor()
  t.match(await admin.locator('[data-editor-heading]').innerText(), /employment-contract\.pdf\s+2 pages/, 'the uploaded file and its pages')
  const image = admin.locator('[data-page-image]')
  await admin.waitForFunction(() => { const i = document.querySelector<HTMLImageElement>('[data-page-image]'); return !!i && i.complete && i.naturalWidth > 0 })

  await admin.locator('[data-external-name]').fill(OUTSIDER.name)
  await admin.locator('[data-external-email]').fill(OUTSIDER.email)
  await admin.locator('[data-add-external]').click()
  await admin.locator('[data-person-select]').selectOption({ label: 'Sam Staff (staff@example.com)' }).catch(async () => {
    // The demo's staff user by address, whatever their name.
    const value = await admin.locator('[data-person-select] option', { hasText: 'staff@example.com' }).getAttribute('value')
    await admin.locator('[data-person-select]').selectOption(value!)
  })
  await admin.locator('[data-add-person]').click()
  t.equal(await admin.locator('.doc-signer').count(), 2, 'two signers, the outsider first')

  // The outsider's fields, on page 2: the signature dragged from the palette onto the page.
  await admin.locator(`[data-signer="${OUTSIDER.email}"] input[type="radio"]`).check()
  await admin.locator('[data-next-page]').click()
  await admin.waitForFunction(() => { const i = document.querySelector<HTMLImageElement>('[data-page-image]'); return !!i && i.src.endsWith('/pages/2') && i.complete && i.naturalWidth > 0 })
  const shown = (await image.boundingBox())!
  const from = (await admin.locator('[data-palette] [data-type="signature"]').boundingBox())!
  const drop = { x: shown.x + shown.width * 0.3, y: shown.y + shown.height * 0.8 }
  await admin.mouse.move(from.x + from.width / 2, from.y + from.height / 2)
  await admin.mouse.down()
  await admin.mouse.move(drop.x, drop.y, { steps: 8 })
  await admin.mouse.up()
  const signatureBox = admin.locator('.doc-box[data-type="signature"]')
  await signatureBox.waitFor()
  t.equal(await admin.locator('.doc-box').count(), 1, 'one drop, one field')
  // Where it was let go, in points of the page (A4, y from the bottom): centred on the pointer.
  const scale = shown.width / A4[0]
  const expected = { x: (drop.x - shown.x) / scale - 85, y: A4[1] - (drop.y - shown.y) / scale - 25 }

  // The date by keyboard: the palette button, Enter, then Shift+arrows move it.
  await admin.locator('[data-palette] [data-type="date"]').focus()
  await admin.keyboard.press('Enter')
  const dateBox = admin.locator('.doc-box[data-type="date"]')
  await dateBox.waitFor()
  t.ok(await dateBox.evaluate((el) => el === document.activeElement), 'the new field has the focus')
  const dateBefore = await dateBox.getAttribute('aria-label')
  for (let i = 0; i < 5; i++) await admin.keyboard.press('Shift+ArrowDown')
  await admin.keyboard.press('Alt+ArrowRight')
  const dateAfter = await dateBox.getAttribute('aria-label')
  const yOf = (label: string | null) => Number(/ y ([\d.]+),/.exec(label ?? '')?.[1])
  t.equal(Math.round(yOf(dateBefore) - yOf(dateAfter)), 50, 'Shift+ArrowDown five times: 50 pt lower')
  t.match(dateAfter, /111 × 22 pt/, 'Alt+ArrowRight: 1 pt wider')
  // The name by a click, then dragged by the mouse.
  await admin.locator('[data-palette] [data-type="name"]').click()
  const nameBox = admin.locator('.doc-box[data-type="name"]')
  await nameBox.waitFor()
  const nb = (await nameBox.boundingBox())!
  await admin.mouse.move(nb.x + nb.width / 2, nb.y + nb.height / 2)
  await admin.mouse.down()
  await admin.mouse.move(nb.x + nb.width / 2 + 40, nb.y + nb.height / 2 + 60, { steps: 6 })
  await admin.mouse.up()

  // The user's signature, on page 1.
  await admin.locator('[data-signer="staff@example.com"] input[type="radio"]').check()
  await admin.locator('[data-previous-page]').click()
  await admin.waitForFunction(() => { const i = document.querySelector<HTMLImageElement>('[data-page-image]'); return !!i && i.src.endsWith('/pages/1') && i.complete && i.naturalWidth > 0 })
  await admin.locator('[data-palette] [data-type="signature"]').click()
  t.equal(await admin.locator('[data-field-row]').count(), 4, 'four fields listed')
  await admin.locator('[data-message]').fill('Please sign your contract.')
  await passes(t, admin, 'new-document-placed-1280')
  await admin.setViewportSize(PHONE)
  await passes(t, admin, 'new-document-placed-390')
  await admin.setViewportSize(DESKTOP)

  await admin.locator('[data-send]').click()
  await admin.waitForURL(/\/app\/sessions\/[^/]+$/)
  const sessionId = new URL(admin.url()).pathname.split('/').at(-1)!
  const session = (await (await admin.request.get(`/api/signing-sessions/${sessionId}`)).json()).data
  t.same(session.requests.map((r: any) => r.signer.email), [OUTSIDER.email, 'staff@example.com'], 'the signers, in order')
  const outsiderFields = session.requests[0].fields
  t.same(outsiderFields.map((f: any) => [f.type, f.page]), [['signature', 2], ['date', 2], ['name', 2]], 'the outsider\'s fields on page 2')
  const placed = outsiderFields[0]
  t.ok(Math.abs(placed.x - expected.x) < 1.5 && Math.abs(placed.y - expected.y) < 1.5, `the signature lands where it was dropped, in points, y up (${placed.x}, ${placed.y} ~ ${expected.x.toFixed(1)}, ${expected.y.toFixed(1)})`)
  t.same(session.requests[1].fields.map((f: any) => [f.type, f.page]), [['signature', 1]])
  t.same(pageErrors(admin), [], 'admin: no script errors')

  // --- The outsider: the link in the mail, a code, the document read to its end, a drawn signature
  const invitation = await mail((m) => m.to[0] === OUTSIDER.email && m.subject.startsWith('Please sign'))
  const link = /(http:\/\/127\.0\.0\.1:\d+\/sign\/[A-Za-z0-9_-]+)/.exec(invitation.text)?.[1]
  t.ok(link, 'the invitation carries the link')
  const outsider = await anonymousPage(browser, baseUrl)
  await outsider.goto(link!)
  await outsider.locator('[data-send-code]').waitFor()
  await passes(t, outsider, 'sign-link-start-390')
  await outsider.locator('[data-send-code]').click()
  await outsider.locator('[data-code-input]').waitFor()
  const codeMail = await mail((m) => m.to[0] === OUTSIDER.email && m.subject.startsWith('Your code'))
  const code = /^\s*(\d{6})\s*$/m.exec(codeMail.text)![1]!
  const wrong = code === '000000' ? '111111' : '000000'
  await outsider.locator('[data-code-input]').fill(wrong)
  await outsider.locator('[data-verify]').click()
  await outsider.locator('[data-step="code"] [data-error]:not(:empty)').waitFor()
  t.match(await outsider.locator('[data-step="code"] [data-error]').innerText(), /That code is not right\. 4 attempt\(s\) left\./, 'a wrong code: said, with the attempts left')
  await passes(t, outsider, 'sign-link-wrong-code-390')
  await outsider.locator('[data-code-input]').fill(code)
  await outsider.locator('[data-verify]').click()
  await outsider.locator('[data-document-heading]').waitFor()
  t.match(await outsider.locator('[data-document-heading]').innerText(), 'employment-contract.pdf')
  t.match(await outsider.locator('[data-message]').innerText(), 'Please sign your contract.')
  t.equal(await outsider.locator('.sign-page').count(), 2, 'the whole document, page by page')
  t.equal(await outsider.locator('.sign-page[data-page="2"] .sign-field').count(), 3, 'their three fields highlighted on page 2')
  t.ok(await outsider.locator('[data-sign]').isDisabled(), 'Sign waits')
  t.match(await outsider.locator('[data-blocker]').innerText(), /to the end/, 'until the document is read to its end')
  await outsider.evaluate(() => window.scrollTo(0, 0))
  await passes(t, outsider, 'sign-link-document-390')
  await outsider.locator('[data-document-end]').scrollIntoViewIfNeeded()
  await outsider.locator('[data-mode="draw"]').check()
  await outsider.waitForFunction(() => (document.querySelector('[data-blocker]')?.textContent ?? '').includes('signature first'))
  const pad = (await outsider.locator('[data-pad]').boundingBox())!
  t.ok(pad.x >= 0 && pad.x + pad.width <= PHONE.width, 'the drawing area fits the phone')
  await outsider.mouse.move(pad.x + 30, pad.y + 120)
  await outsider.mouse.down()
  for (const [x, y] of [[60, 50], [90, 130], [120, 60], [150, 120], [200, 70], [250, 110]] as const) await outsider.mouse.move(pad.x + x, pad.y + y, { steps: 4 })
  await outsider.mouse.up()
  await outsider.waitForFunction(() => !(document.querySelector('[data-sign]') as HTMLButtonElement).disabled)
  await passes(t, outsider, 'sign-link-ready-390')
  await outsider.locator('[data-sign]').click()
  await outsider.locator('[data-done-heading]').waitFor({ timeout: 120_000 })
  await passes(t, outsider, 'sign-link-done-390')
  t.same(pageErrors(outsider), [], 'outsider: no script errors')
  // The link is spent: opened again, it says so.
  await outsider.goto(link!)
  await outsider.locator('[data-ended-text]:not(:empty)').waitFor()
  t.match(await outsider.locator('[data-ended-text]').innerText(), /already been used/, 'a used link says so')

  // --- The user, from the Inbox
  const staff = await signedInPage(browser, baseUrl, 'staff@example.com', { bypassCSP: true })
  await mail((m) => m.to[0] === 'staff@example.com' && m.subject.startsWith('Please sign'))
  await staff.locator('[data-topbar="signature.inbox"]').click()
  await staff.waitForURL(/\/inbox/)
  await staff.locator(`a[data-sign-link][href*="/documents/requests/${session.requests[1].id}/sign"]`).click()
  await staff.locator('[data-document-heading]').waitFor()
  t.ok(await staff.locator('[data-sign]').isDisabled(), 'the user too reads first')
  await passes(t, staff, 'document-signer-account-1280')
  await staff.locator('[data-document-end]').scrollIntoViewIfNeeded()
  await staff.waitForFunction(() => !(document.querySelector('[data-sign]') as HTMLButtonElement).disabled)
  await staff.locator('[data-sign]').click()
  await staff.locator('[data-done-heading]').waitFor({ timeout: 120_000 })
  await staff.setViewportSize(PHONE)
  await passes(t, staff, 'document-signer-account-done-390')
  t.same(pageErrors(staff), [], 'user: no script errors')

  // --- Completion: everyone's mail carries the signed PDF; every signature valid; name and date filled
  for (const to of [OUTSIDER.email, 'staff@example.com', 'admin@example.com']) {
    const done = await mail((m) => m.to[0] === to && m.subject.startsWith('Signed by everyone'))
    t.ok(attachedPdf(done), `${to}: the signed PDF is attached`)
  }
  const pdf = attachedPdf(await mail((m) => m.to[0] === 'admin@example.com' && m.subject.startsWith('Signed by everyone')))!
  const { signatures } = await pdfsig(pdf)
  const checked = signatures.filter((s) => s.fieldName !== 'Document timestamp')
  t.ok(checked.length >= 3 && checked.every((s) => s.valid), `every signature valid (${signatures.map((s) => s.validation).join(' / ')})`)
  const page2 = await popplerText(pdf, 2)
  t.match(page2, OUTSIDER.name, 'the name field is filled')
  t.match(page2, new Date().toISOString().slice(0, 10), 'the date field is filled')
  await admin.goto(`/app/sessions/${sessionId}`)
  t.equal(await admin.locator('[data-session-status]').innerText(), 'completed')
  await passes(t, admin, 'document-session-completed-1280')
})
