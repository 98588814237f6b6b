// An incremental update can change what a viewer shows without writing a single object: its
// cross-reference section marks an object free ("0000000000 00001 f"), and a reader then treats
// every reference to it as null. Here the signed page has a white box drawn over a sentence (a
// "hide" shadow attack prepared before signing); an update freeing that box brings the sentence
// back. Every object freed after a signature is a change in the report and is judged: a freed
// page-content object is never allowed, nor is anything the document still uses; an object
// nothing uses any more may go, except under P=1.
import { PDFArray, PDFDict, PDFName, type PDFRef } from 'pdf-lib'
import t from 'tap'
import { verifyWithTestCa } from '../../../fixtures/pdf/verify-with-test-ca.ts'
import { signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { loadPdf } from '../../../../plugins/signature/pdf/load-pdf.ts'
import { listFields } from '../../../../plugins/signature/pdf/signature-fields.ts'
import { withSignatureContentsSkipped } from '../../../../plugins/signature/pdf/signature-contents-skipped.ts'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { inkShare, mupdfChangeHistory, pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { freeObjects } from '../../../fixtures/pdf/incremental-tamper.ts'
import { pdfFromObjects } from '../../../fixtures/pdf/malformed-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testCertificateAuthority, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const verify = verifyWithTestCa
const SENTENCE = 'BT /F1 24 Tf 60 500 Td (The buyer pays EUR 1,000,000) Tj ET'
const WHITE_BOX = '1 1 1 rg 40 480 500 60 re f'
const hidden = { x: 60, y: 500, width: 300, height: 20 }
// Page content: the sentence, then the white box over it (object 6); object 7 is used by nothing.
const prepared = pdfFromObjects([
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [4 0 R 6 0 R] /Resources << /Font << /F1 5 0 R >> >> >>',
  `<< /Length ${SENTENCE.length} >>\nstream\n${SENTENCE}\nendstream`,
  '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  `<< /Length ${WHITE_BOX.length} >>\nstream\n${WHITE_BOX}\nendstream`,
  '<< /Unused true >>',
])
const sign = (certify?: { p: 1 | 2 }) => signDocument(prepared, { stamps: [{ page: 1, x: 40, y: 60, width: 210, height: 90, image: makeStampPng() }], signer: testUserCertificate('Chen Wei'), ...(certify ? { certify } : {}) })

async function objectsOf(pdf: Uint8Array): Promise<{ whiteBox: PDFRef; unused: PDFRef; stamp: PDFRef }> {
  const doc = await loadPdf(withSignatureContentsSkipped(pdf))
  const contents = doc.getPage(0).node.lookup(PDFName.of('Contents'), PDFArray).asArray() as PDFRef[]
  const unused = doc.context.enumerateIndirectObjects().find(([, o]) => o.toString().includes('/Unused true'))![0]
  const widget = listFields(doc).find((f) => f.isSigned)!.widgets[0]!.dict
  return { whiteBox: contents.at(-1)!, unused, stamp: widget.lookup(PDFName.of('AP'), PDFDict).get(PDFName.of('N')) as PDFRef }
}

t.test('the white box over signed text freed by an xref-only update: forbidden, and named', async (t) => {
  for (const [name, pdf] of [['certified (P=2)', await sign({ p: 2 })], ['approval only', await sign()]] as const) {
    const { whiteBox } = await objectsOf(pdf)
    t.equal((await verify(pdf)).verdict, 'valid', `${name}: valid before`)
    t.equal((await inkShare(pdf, 1, [hidden]))[0], 0, `${name}: the sentence is hidden when signed`)
    for (const as of ['table', 'stream'] as const) {
      const freed = freeObjects(pdf, [whiteBox], { as })
      t.ok((await inkShare(freed, 1, [hidden]))[0]! > 0.05, `${name}, ${as}: mupdf now shows the hidden sentence`)
      const report = await verify(freed)
      t.equal(report.verdict, 'invalid', `${name}, ${as}: ${report.summary}`)
      const [signature] = report.signatures
      t.equal(signature!.integrity, 'valid', 'every signed byte is intact')
      t.equal(signature!.modificationsAfter, 'forbidden')
      t.same(signature!.changes.map((c) => [c.revision, c.object, c.kind, c.allowed]), [[signature!.revision + 1, whiteBox.toString(), 'freed-object', false]], `${name}, ${as}`)
      t.match(signature!.changes[0]?.why ?? '(none)', /content of page 1.*marked free/, `${name}, ${as}`)
      t.match(signature!.summary, /not valid\..*marked free/)
      // mupdf's change history refuses it as well; pdfsig checks bytes only.
      t.not((await mupdfChangeHistory(freed)).verdict, 0, `${name}, ${as}: mupdf agrees`)
      t.ok((await pdfsig(freed)).signatures.every((s) => s.valid), `${name}, ${as}: pdfsig alone calls it valid`)
    }
  }
})

t.test("the signer's visible stamp freed while its widget still shows it: forbidden", async (t) => {
  const pdf = await sign()
  const { stamp } = await objectsOf(pdf)
  const report = await verify(freeObjects(pdf, [stamp]))
  t.equal(report.verdict, 'invalid', report.summary)
  t.same(report.signatures[0]!.changes.map((c) => [c.object, c.kind, c.allowed]), [[stamp.toString(), 'freed-object', false]])
  t.match(report.signatures[0]!.changes[0]?.why, /appearance of the field "Signature".*while the document still uses it/)
})

t.test('an object nothing uses, freed: a listed change, allowed except under P=1', async (t) => {
  for (const [name, pdf, allowed] of [['approval only', await sign(), true], ['certified (P=1)', await sign({ p: 1 }), false]] as const) {
    const { unused } = await objectsOf(pdf)
    const report = await verify(freeObjects(pdf, [unused]))
    t.same(report.signatures[0]!.changes.map((c) => [c.object, c.kind, c.allowed]), [[unused.toString(), 'freed-object', allowed]], name)
    t.equal(report.verdict, allowed ? 'valid' : 'invalid', `${name}: ${report.summary}`)
  }
})
