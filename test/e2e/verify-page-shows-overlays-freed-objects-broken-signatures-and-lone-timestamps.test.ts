// The public /verify page in Chromium shows what the revision checks find (issue 35, items 2-5),
// in the words a person reads: a signature field nobody signed drawn over the page, an object
// deleted by an update that only marks it free, a signature whose /ByteRange is gone, and a file
// that only carries a timestamp from the app's own public TSA.
import path from 'node:path'
import { PDFArray, PDFName, type PDFRef } from 'pdf-lib'
import t from 'tap'
import { appendDocumentTimestamp } from '../../plugins/signature/ltv/append-document-timestamp.ts'
import { loadPdf } from '../../plugins/signature/pdf/load-pdf.ts'
import { withSignatureContentsSkipped } from '../../plugins/signature/pdf/signature-contents-skipped.ts'
import { seriousAxeViolations } from '../helpers/axe.ts'
import { SCREENSHOTS, startBrowserSession } from '../helpers/browser.ts'
import { addUnsignedSignatureFieldOverlay, appendUpdate, freeObjects } from '../fixtures/pdf/incremental-tamper.ts'
import { makePdf } from '../fixtures/pdf/make-pdf.ts'
import { signerWithSignature } from '../plugins/signature/signing/helpers.ts'

t.setTimeout(240_000)

t.test('/verify names the overlay, the freed object, the broken signature and the lone timestamp', async (t) => {
  const { baseUrl, browser, app } = await startBrowserSession(t)
  const staff = await signerWithSignature(app, 'staff@example.com')
  const signedResponse = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf: Buffer.from(await makePdf()).toString('base64'), placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }] } })
  t.equal(signedResponse.statusCode, 200)
  const signed = signedResponse.rawPayload
  const doc = await loadPdf(withSignatureContentsSkipped(signed))
  const contents = doc.getPage(0).node.lookup(PDFName.of('Contents'))
  const pageContent = (contents instanceof PDFArray ? contents.asArray()[0] : doc.getPage(0).node.get(PDFName.of('Contents'))) as PDFRef
  const text = signed.toString('latin1')
  const rangeAt = text.indexOf('/ByteRange')
  const broken = Buffer.from(signed)
  broken.write(' '.repeat(text.indexOf(']', rangeAt) + 1 - rangeAt), rangeAt, 'latin1')

  const files: Array<[string, Buffer, string, RegExp]> = [
    ['overlay.pdf', await appendUpdate(signed, addUnsignedSignatureFieldOverlay), 'invalid', /A new signature field "Approval" is added on page 1 and never signed; its widget draws over page 1: an overlay, not a signature\. Not allowed \(added in revision \d+\)\./],
    ['freed.pdf', freeObjects(signed, [pageContent]), 'invalid', /The content of page 1 \(\d+ 0 R\) is deleted by a later update \(marked free\): viewers stop showing it.*Not allowed \(added in revision \d+\)/],
    ['broken.pdf', broken, 'invalid', /not valid\. The signature does not say which bytes of the file it signs \(its \/ByteRange is missing\)/],
    ['timestamp-only.pdf', await appendDocumentTimestamp(await makePdf(), { urls: [`${baseUrl}/pki/tsa`] }), 'warning', /Nobody signed this document\. It carries only a document timestamp, which proves the file existed in this form at \d{4}-\d\d-\d\dT[\d:.]+Z, not who wrote or approved it\./],
  ]
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 }, bypassCSP: true })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto('/verify')
  for (const [name, pdf, verdict, wording] of files) {
    await page.setInputFiles('[data-file]', { name, mimeType: 'application/pdf', buffer: pdf })
    await page.waitForFunction((file) => document.querySelector('[data-status]')?.textContent === `${file}: checked.`, name)
    t.equal(await page.getAttribute('.verify-verdict', 'data-verdict'), verdict, name)
    t.match(await page.textContent('.verify-verdict h2'), verdict === 'invalid' ? 'Not valid' : 'Valid with warnings', name)
    t.match(await page.textContent('[data-report]'), wording, name)
    // (The document timestamp after it covers the rewritten bytes too, so it breaks as well.)
    if (name === 'broken.pdf') t.equal(await page.getAttribute('[data-report] article[data-signature="Signature"]', 'data-verdict'), 'invalid', 'the broken signature is listed, not valid')
    await page.screenshot({ path: path.join(SCREENSHOTS, `verify-${name.replace('.pdf', '')}.png`), fullPage: true })
  }
  t.same(await seriousAxeViolations(page), [], 'the last report is axe-clean')
  t.same(errors, [], 'no script error')
  await context.close()
})
