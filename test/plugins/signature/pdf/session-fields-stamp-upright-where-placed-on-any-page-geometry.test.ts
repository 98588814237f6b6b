// Issue 17, the session path: freezeDocument turns each displayed box into its field's /Rect in
// the page's user space, and signField draws the stamp into that widget's appearance turned
// back against /Rotate. Every page geometry of the matrix gets one field; each is signed in
// turn; poppler's pdftoppm -cropbox shows each stamp in its box, upright; every signature valid.
import t from 'tap'
import { freezeDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { mupdfChangeHistory, pdfsig, qpdfCheck, quadrantInk, renderAsViewer } from '../../../fixtures/pdf/checkers.ts'
import { makeGeometryPdf, topLeftBox } from '../../../fixtures/pdf/geometry-pdf.ts'
import { makeCornerStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

t.setTimeout(300_000)

const application = testUserCertificate('Signing Application')
const signer = testUserCertificate('Alice Martin')
const image = makeCornerStampPng()

t.test('one field per page geometry, each signed in turn, each stamp upright in its box', async (t) => {
  const { bytes, pages } = await makeGeometryPdf()
  const fields = pages.map((page) => ({ name: `page-${page.page}`, ...topLeftBox(page) }))

  // Past the displayed top edge: refused by the engine itself, with the one code.
  await t.rejects(freezeDocument(bytes, { fields: [{ ...fields[5]!, y: pages[5]!.height - 20 }], signer: application }), { code: 'ERR_PLACEMENT_OFF_PAGE', statusCode: 422 })

  let document = await freezeDocument(bytes, { fields, signer: application })
  const started = Date.now()
  for (const field of fields) document = await signField(document, { fieldName: field.name, image, signer, reason: `Signs ${field.name}` })
  t.comment(`${fields.length} incremental signatures: ${Date.now() - started} ms`)

  const { signatures } = await pdfsig(document)
  t.equal(signatures.length, fields.length + 1, 'the certification and one signature per field')
  t.ok(signatures.every((s) => s.valid), signatures.filter((s) => !s.valid).map((s) => `${s.fieldName}: ${s.validation}`).join('; ') || 'all valid')
  t.ok((await qpdfCheck(document)).clean, 'qpdf --check')
  t.equal((await mupdfChangeHistory(document)).verdict, 0, 'mupdf: every later signer only filled their own field')

  for (const page of pages) {
    const [topLeft, ...rest] = await quadrantInk(await renderAsViewer(document, page.page, 144), page, topLeftBox(page))
    t.ok(topLeft! > 0.5 && rest.every((ink) => ink < 0.02), `${page.name}: in its box, upright (ink by quadrant ${[topLeft, ...rest].map((n) => n!.toFixed(2)).join(' ')})`)
  }
})
