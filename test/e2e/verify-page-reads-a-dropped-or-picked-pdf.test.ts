// The public /verify page in Chromium, signed out: a PDF picked with the file input and one
// dropped on the zone come back as a verdict with each signature's facts and the named changes.
// Screenshots at desktop and phone size (artifacts/screenshots/verify-*.png); axe-core clean.
import path from 'node:path'
import t from 'tap'
import { seriousAxeViolations } from '../helpers/axe.ts'
import { SCREENSHOTS, startBrowserSession } from '../helpers/browser.ts'
import { appendUpdate, changePageContent } from '../fixtures/pdf/incremental-tamper.ts'
import { makePdf } from '../fixtures/pdf/make-pdf.ts'
import { signerWithSignature } from '../plugins/signature/signing/helpers.ts'

t.setTimeout(180_000)

t.test('/verify: pick a signed PDF, then drop a tampered one, and read the verdicts', async (t) => {
  const { baseUrl, browser, app } = await startBrowserSession(t)
  const staff = await signerWithSignature(app, 'staff@example.com')
  const signedResponse = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf: Buffer.from(await makePdf()).toString('base64'), placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }], title: 'Leave request' } })
  t.equal(signedResponse.statusCode, 200)
  const signed = signedResponse.rawPayload
  // The signed copy has three revisions (the signature, its DSS, the document timestamp): the tampering is the fourth.
  const tampered = await appendUpdate(signed, changePageContent)

  for (const [label, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
    // Signed out, in a fresh context; bypassCSP only so that axe-core can be injected.
    const context = await browser.newContext({ baseURL: baseUrl, viewport, bypassCSP: true })
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto('/verify')
    t.equal(page.url(), `${baseUrl}/verify`, 'no redirect to the sign-in page')
    t.same(await seriousAxeViolations(page), [], `${label}: the empty page is axe-clean`)

    await page.setInputFiles('[data-file]', { name: 'leave-request-signed.pdf', mimeType: 'application/pdf', buffer: signed })
    await page.waitForSelector('[data-report] [data-verdict]')
    t.equal(await page.getAttribute('.verify-verdict', 'data-verdict'), 'valid', `${label}: picked file`)
    t.match(await page.textContent('.verify-verdict h2'), 'Valid')
    t.match(await page.textContent('[data-report]'), /Sam Staff/)
    t.match(await page.textContent('[data-status]'), 'leave-request-signed.pdf: checked.')
    await page.screenshot({ path: path.join(SCREENSHOTS, `verify-valid-${label}.png`), fullPage: true })

    // Drop: a real drop event carrying a File, as the browser makes it from a dragged file.
    await page.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))
      const transfer = new DataTransfer()
      transfer.items.add(new File([bytes], 'altered.pdf', { type: 'application/pdf' }))
      const zone = document.querySelector('[data-drop]')!
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }))
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }))
    }, tampered.toString('base64'))
    await page.waitForFunction(() => document.querySelector('.verify-verdict')?.getAttribute('data-verdict') === 'invalid')
    t.match(await page.textContent('.verify-verdict h2'), 'Not valid')
    // Issue 39 item 11: the change in words, the object number one click away.
    const change = page.locator('.verify-changes .is-forbidden').first()
    t.match(await change.locator('> span').textContent(), /^Page 1's \/Contents is changed.*Not allowed \(added in revision \d+\)/)
    t.notMatch(await change.locator('> span').textContent(), /\d+ 0 R/, 'no object number in the sentence')
    t.notOk(await change.locator('details').getAttribute('open'), 'the details are closed')
    await change.locator('summary').click()
    t.match(await change.locator('details').textContent(), /Object \d+ 0 R, change of kind “page-content”/)
    // Issue 35 item 8: the ETSI indication and the chain, one click away.
    const technical = page.locator('.verify-technical').first()
    await technical.locator('summary').click()
    t.match(await technical.textContent(), /ETSI EN 319 102-1: TOTAL-FAILED \/ [A-Z_]+\. Validated at/, `${label}: the indication of the tampered file`)
    t.match(await technical.locator('.verify-chain li').first().textContent(), /CN=Sam Staff.*issued by .*Signature Application CA/)
    t.same(await seriousAxeViolations(page), [], `${label}: the report is axe-clean`)
    await page.screenshot({ path: path.join(SCREENSHOTS, `verify-invalid-${label}.png`), fullPage: true })
    t.same(errors, [], 'no script error')
    await context.close()
  }
})
