import t from 'tap'
import { inspectPdf, signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { inkShare, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampJpeg, makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const boxes = [
  { page: 1, x: 40, y: 40, width: 160, height: 60 },
  { page: 57, x: 300, y: 200, width: 200, height: 80 },
  { page: 100, x: 550, y: 400, width: 200, height: 100 },
]
const signed = await signDocument(await makePdf({ pages: 100 }), {
  stamps: [
    { ...boxes[0]!, image: makeStampPng() },
    { ...boxes[1]!, image: await makeStampJpeg() },
    { ...boxes[2]!, image: makeStampPng(300, 100, [120, 0, 0]) },
  ],
  signer: testUserCertificate('Hundred Pages'),
  certify: { p: 2 },
})

t.test('one valid certification over all 100 pages', async (t) => {
  const [signature] = (await pdfsig(signed)).signatures
  t.equal(signature?.validation, 'Signature is Valid.')
  t.ok(signature?.totalDocumentSigned)
  const summary = await inspectPdf(signed)
  t.equal(summary.pageCount, 100)
  t.ok(summary.pages.every((p) => p.width === 792 && p.height === 612))
  t.equal(summary.docMdp, 2)
  const qpdf = await qpdfCheck(signed)
  t.ok(qpdf.clean, qpdf.output)
})

t.test('each stamp (PNG, JPEG) is on its own page, in its box, and not on the others', async (t) => {
  for (const box of boxes) {
    const [ink] = await inkShare(signed, box.page, [box])
    t.ok(ink! > 0.3, `page ${box.page}: ink ${ink}`)
    const [elsewhere] = await inkShare(signed, box.page === 1 ? 2 : 1, [box])
    t.equal(elsewhere, 0, `the same box on another page is white`)
  }
})
