// Issue 39 item 6: a first-time signer following the link of their invitation had to make a
// signature before seeing anything of the document ("Keep it and sign" signed nothing). Now the
// link opens the document; clicking its field asks for the signature in a dialog (drawn or typed,
// kept in the library), which is then placed; Finish signs. The visit is one opening in the trail.
import path from 'node:path'
import t from 'tap'
import type { Page } from 'playwright-core'
import { seriousAxeViolations } from '../helpers/axe.ts'
import { pageErrors, SCREENSHOTS, signedInPage, signedPageShown, startBrowserSession } from '../helpers/browser.ts'

t.setTimeout(300_000)

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `first-time-signer-${name}.png`) })

t.test('from the invitation link: the document first, the signature when the field is clicked, then signed', async (t) => {
  const { baseUrl, browser } = await startBrowserSession(t)
  const admin = await signedInPage(browser, baseUrl, 'admin@example.com')
  const created = await admin.request.post('/api/signing-sessions', { data: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'parallel' } })
  t.equal(created.status(), 201)
  const session = (await created.json()).data as { id: string; requests: Array<{ id: string; slot: string; signerUrl: string }> }
  const invitation = session.requests.find((r) => r.slot === 'employee')!.signerUrl
  t.match(invitation, /\/sign\/new\?request=/, 'the invitation of someone without a signature')

  const staff = await signedInPage(browser, baseUrl, 'staff@example.com', { bypassCSP: true })
  t.same((await (await staff.request.get('/api/signatures')).json()).data, [], 'a first-time signer: the library is empty')
  await staff.goto(invitation)
  await staff.locator('img.signer-page').evaluate((img: HTMLImageElement) => img.complete || new Promise((r) => img.addEventListener('load', r)))
  t.ok(await staff.locator('img.signer-page').evaluate((img: HTMLImageElement) => img.naturalWidth > 0), 'the document is shown at once')
  t.match(await staff.locator('[data-marker="employee"]').innerText(), /Sign here: Employee/, 'with its field to sign')
  t.match(await staff.locator('[data-signing-with]').innerText(), 'Read the document, then click a field to sign it')
  t.notOk(await staff.locator('[data-newsig-dialog]').evaluate((d: HTMLDialogElement) => d.open), 'nothing asked before the document')
  t.ok(await staff.locator('[data-strip-section]').isHidden(), 'no empty "Your signatures" strip')
  t.same(await seriousAxeViolations(staff), [], 'axe on the document, 1280 px')
  await shot(staff, 'document-1280')

  await staff.locator('[data-marker="employee"]').click()
  const dialog = staff.getByRole('dialog', { name: 'Your signature' })
  await dialog.waitFor()
  t.ok(await staff.evaluate(() => document.activeElement?.matches('[data-mode="draw"]')), 'the focus is in the dialog')
  t.same(await seriousAxeViolations(staff), [], 'axe with the dialog open, 1280 px')
  await shot(staff, 'dialog-1280')
  await dialog.getByRole('button', { name: 'Sign with it' }).click()
  await staff.locator('[data-error-for="pad"]', { hasText: 'Draw your signature first.' }).waitFor()
  t.equal(await staff.locator('[data-box]').count(), 0, 'nothing placed without a signature')
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  t.notOk(await staff.locator('[data-newsig-dialog]').evaluate((d: HTMLDialogElement) => d.open), 'Cancel closes the dialog')
  t.ok(await staff.evaluate(() => document.activeElement?.matches('[data-marker="employee"]')), 'the focus returns to the field')
  t.equal(await staff.locator('[data-box]').count(), 0, 'and nothing is placed')
  await staff.getByRole('button', { name: 'Next field' }).click()
  await dialog.waitFor()

  await staff.setViewportSize({ width: 390, height: 844 })
  const box = (await staff.locator('[data-pad]').boundingBox())!
  t.ok(box.width > 250 && box.x >= 0 && box.x + box.width <= 390, `the pad fits a phone (${Math.round(box.x)} + ${Math.round(box.width)} px)`)
  await staff.mouse.move(box.x + 30, box.y + 120)
  await staff.mouse.down()
  for (const [x, y] of [[60, 50], [90, 130], [120, 60], [150, 120], [200, 70], [250, 110]] as const) await staff.mouse.move(box.x + x, box.y + y, { steps: 5 })
  await staff.mouse.up()
  t.same(await seriousAxeViolations(staff), [], 'axe with the dialog open, 390 px')
  await shot(staff, 'dialog-drawn-390')
  await dialog.getByRole('button', { name: 'Sign with it' }).click()
  await staff.locator('[data-box="employee"] img').waitFor({ timeout: 60_000 })
  t.notOk(await staff.locator('[data-newsig-dialog]').evaluate((d: HTMLDialogElement) => d.open), 'the dialog closed')
  t.ok(await staff.evaluate(() => document.activeElement?.matches('[data-box="employee"]')), 'the placed stamp has the focus')
  const library = (await (await staff.request.get('/api/signatures')).json()).data as Array<{ uuid: string; label: string }>
  t.match(library, [{ label: 'My signature' }], 'the signature is kept in the library')
  t.match(staff.url(), `/sign/${library[0]!.uuid}?`, 'a reload opens the page with it')
  t.match(await staff.locator('[data-signing-with]').innerText(), 'Signing with “My signature”')
  await shot(staff, 'placed-390')
  await staff.evaluate(() => window.scrollTo(0, 0))
  t.same(await seriousAxeViolations(staff), [], 'axe with the stamp placed, 390 px')

  await staff.getByRole('button', { name: 'Finish & Save' }).click()
  await staff.locator('[data-download]').waitFor({ timeout: 90_000 })
  await signedPageShown(staff)
  const detail = (await (await admin.request.get(`/api/signing-sessions/${session.id}`)).json()).data as { requests: Array<{ slot: string; status: string }>; events: Array<{ event: string }> }
  t.equal(detail.requests.find((r) => r.slot === 'employee')!.status, 'signed', 'the request is signed')
  t.equal(detail.events.filter((e) => e.event === 'opened').length, 1, 'one visit, one opening (it was two: the signature page, then the document)')
  t.same(pageErrors(staff), [])
})
