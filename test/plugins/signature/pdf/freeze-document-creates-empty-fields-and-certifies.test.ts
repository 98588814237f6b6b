import t from 'tap'
import { freezeDocument, inspectPdf } from '../../../../plugins/signature/pdf/index.ts'
import { mupdfChangeHistory, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const slots = [
  { name: 'tenant', page: 1, x: 50, y: 50, width: 200, height: 70 },
  { name: 'landlord', page: 3, x: 400, y: 80, width: 180, height: 60 },
]
const frozen = await freezeDocument(await makePdf({ pages: 3 }), { fields: slots, signer: testUserCertificate('Freezer App') })

t.test('every slot is an empty signature field and the certification is the only signature', async (t) => {
  const { signatures } = await pdfsig(frozen)
  const empty = signatures.filter((s) => !s.signed).map((s) => s.fieldName)
  t.same(empty.sort(), ['landlord', 'tenant'])
  const signed = signatures.filter((s) => s.signed)
  t.equal(signed.length, 1)
  t.equal(signed[0]?.validation, 'Signature is Valid.')
  t.ok(signed[0]?.totalDocumentSigned)
  t.equal(signed[0]?.commonName, 'Freezer App')
})

t.test('the document is certified with DocMDP P=2', async (t) => {
  const summary = await inspectPdf(frozen)
  t.equal(summary.docMdp, 2)
  t.same(summary.signatureFields.filter((f) => !f.signed).map((f) => f.name).sort(), ['landlord', 'tenant'])
})

t.test('each widget sits on its page with the slot rectangle (read back by mupdf)', async (t) => {
  const mupdf = await import('mupdf')
  const doc = mupdf.PDFDocument.openDocument(frozen, 'application/pdf') as InstanceType<typeof mupdf.PDFDocument>
  t.teardown(() => doc.destroy())
  for (const slot of slots) {
    const page = doc.loadPage(slot.page - 1) as InstanceType<typeof mupdf.PDFPage>
    const widget = page.getWidgets().find((w) => w.getName() === slot.name)
    t.ok(widget, `${slot.name} on page ${slot.page}`)
    // mupdf reports rectangles with y growing downwards from the top of the 612 pt high page.
    const expected = [slot.x, 612 - slot.y - slot.height, slot.x + slot.width, 612 - slot.y]
    t.same(widget?.getRect().map((n) => Math.round(n)), expected, `${slot.name} rectangle`)
  }
})

t.test('mupdf sees one version and no forbidden change; qpdf is clean', async (t) => {
  t.same(await mupdfChangeHistory(frozen), { verdict: 0, versions: 1 })
  const qpdf = await qpdfCheck(frozen)
  t.ok(qpdf.clean, qpdf.output)
})

t.test('bad slots are refused with ERR_FIELD_INVALID or ERR_PAGE_OUT_OF_RANGE', async (t) => {
  const pdf = await makePdf()
  const signer = testUserCertificate('Freezer App 2')
  const slot = { name: 'a', page: 1, x: 10, y: 10, width: 100, height: 40 }
  await t.rejects(freezeDocument(pdf, { signer, fields: [slot, { ...slot }] }), { code: 'ERR_FIELD_INVALID' }, 'duplicate name')
  await t.rejects(freezeDocument(pdf, { signer, fields: [{ ...slot, name: '' }] }), { code: 'ERR_FIELD_INVALID' }, 'empty name')
  await t.rejects(freezeDocument(pdf, { signer, fields: [{ ...slot, width: 0 }] }), { code: 'ERR_FIELD_INVALID' }, 'zero width')
  await t.rejects(freezeDocument(pdf, { signer, fields: [{ ...slot, page: 2 }] }), { code: 'ERR_PAGE_OUT_OF_RANGE', statusCode: 422 })
})
