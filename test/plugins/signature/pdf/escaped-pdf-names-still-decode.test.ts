import { PDFDict, PDFName } from 'pdf-lib'
import t from 'tap'
import { loadPdf } from '../../../../plugins/signature/pdf/load-pdf.ts'
import { signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { readP12 } from '../../../../plugins/signature/certificates/index.ts'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { onePagePdf } from '../../../fixtures/pdf/malformed-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

// Names are looked up without decoding when they hold no '#' (pdf-name-fast-path.ts). A name
// written with #xx escapes (PDF 32000-1 7.3.5) must still mean the same name as its plain form.

t.test('a catalog, a page tree and a page whose /Type names are escaped load, sign and verify', async (t) => {
  const pdf = onePagePdf({
    catalog: '<< /Type /Cat#61log /Pages 2 0 R >>',
    pages: '<< /Type /P#61ges /Kids [3 0 R] /Count 1 >>',
    page: '<< /Type /P#61#67e /Parent 2 0 R /MediaBox [0 0 792 612] /Contents 4 0 R /Resources << /Font << /F#31 5 0 R >> >> >>',
  })
  const doc = await loadPdf(pdf)
  t.equal(doc.getPageCount(), 1)
  t.equal(doc.catalog.get(PDFName.of('Type')), PDFName.of('Catalog'), '/Cat#61log is /Catalog')
  const fonts = doc.getPage(0).node.Resources()!.lookup(PDFName.of('Font'), PDFDict)
  t.ok(fonts.get(PDFName.of('F1')), '/F#31 is /F1')
  t.equal(PDFName.of('A#20B'), PDFName.of('A B'), 'an escaped space and a plain one are one name')
  t.equal(PDFName.of('A#20B').asString(), '/A#20B', 'and it is written escaped')

  const issued = testUserCertificate('Escaped Names')
  const signed = await signDocument(pdf, { stamps: [{ page: 1, x: 400, y: 60, width: 200, height: 80, image: makeStampPng() }], signer: readP12(issued.p12, issued.password), certify: {} })
  const { signatures } = await pdfsig(signed)
  t.equal(signatures.length, 1)
  t.ok(signatures[0]?.valid && signatures[0].totalDocumentSigned, 'pdfsig: valid, the whole document')
})
