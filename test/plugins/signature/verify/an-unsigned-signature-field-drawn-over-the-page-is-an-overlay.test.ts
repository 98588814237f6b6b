// The "sneaky signature" (PDF-Insecurity): after the signatures, an incremental update adds a new
// /FT /Sig field that nobody signs, whose widget covers the page with "PAY EUR 1,000,000". A new
// signature field is an allowed change only as part of signing it (in its own revision or a later
// one); unsigned and drawn over the page it is an overlay, so the document is not valid — for a
// certified document (P=2) and for approval signatures alike.
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef } from 'pdf-lib'
import t from 'tap'
import { verifyWithTestCa } from '../../../fixtures/pdf/verify-with-test-ca.ts'
import { countersignDocument, freezeDocument, signDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { imageInkShare, mupdfChangeHistory, pdfsig, popplerText, renderAsViewer } from '../../../fixtures/pdf/checkers.ts'
import { addUnsignedSignatureFieldOverlay, appendUpdate } from '../../../fixtures/pdf/incremental-tamper.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testCertificateAuthority, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const verify = verifyWithTestCa
const stamp = makeStampPng()
const box = { page: 1, x: 40, y: 60, width: 210, height: 90 }

let certified = await freezeDocument(await makePdf(), { fields: [{ name: 'employee', ...box }], signer: testUserCertificate('Signing Application') })
certified = await signField(certified, { fieldName: 'employee', image: stamp, signer: testUserCertificate('Alice Martin') })
const approved = await signDocument(await makePdf(), { stamps: [{ ...box, image: stamp }], signer: testUserCertificate('Chen Wei') })

t.test('an unsigned signature field whose widget covers the page: an overlay, not valid', async (t) => {
  for (const [name, pdf] of [['certified (P=2)', certified], ['approval only', approved]] as const) {
    t.equal((await verify(pdf)).verdict, 'valid', `${name}: valid before the update`)
    const sneaky = await appendUpdate(pdf, addUnsignedSignatureFieldOverlay)
    // What a viewer shows (poppler, as a reader draws widgets): the page's own text is painted over.
    const text = [{ x: 40, y: 540, width: 200, height: 20 }]
    const [before] = await imageInkShare(await renderAsViewer(pdf, 1), 612, text, 72)
    const [after] = await imageInkShare(await renderAsViewer(sneaky, 1), 612, text, 72)
    t.ok(before! > 0.05 && after === 0, `${name}: the overlay hides the page's own text (ink ${before} -> ${after})`)
    t.match(await popplerText(sneaky), 'PAY EUR 1,000,000')

    const report = await verify(sneaky)
    t.equal(report.verdict, 'invalid', `${name}: ${report.summary}`)
    for (const signature of report.signatures) {
      t.equal(signature.integrity, 'valid', `${name}, ${signature.field}: its bytes are intact`)
      t.equal(signature.modificationsAfter, 'forbidden', `${name}, ${signature.field}`)
    }
    const overlay = report.signatures.at(-1)!.changes.filter((c) => c.kind === 'signature-field')
    t.ok(overlay.length > 0 && overlay.every((c) => !c.allowed), `${name}: ${JSON.stringify(report.signatures.at(-1)!.changes)}`)
    t.match(overlay.map((c) => c.why).join(' '), /"Approval".*never signed.*draws over page 1/, name)
    t.match(report.signatures.at(-1)!.summary, /not valid\..*"Approval"/, `${name}: the summary says why`)

    // mupdf's validateChangeHistory() refuses it too (it refuses any new field after a signature,
    // even one being signed, which ISO 32000-2 allows under P=2). pdfsig lists the field as
    // "not signed" and still calls every signature valid: it does no modification analysis.
    t.not((await mupdfChangeHistory(sneaky)).verdict, 0, `${name}: mupdf agrees`)
    const checked = await pdfsig(sneaky)
    t.ok(checked.signatures.some((s) => s.fieldName === 'Approval' && !s.signed), `${name}: pdfsig sees an unsigned field`)
    t.ok(checked.signatures.filter((s) => s.signed).every((s) => s.valid), `${name}: pdfsig alone would call the signatures valid`)
  }
})

t.test('a new signature field signed in the same revision (a countersignature) stays allowed', async (t) => {
  const countersigned = await countersignDocument(approved, { stamps: [{ ...box, x: 300, image: stamp }], signer: testUserCertificate('Dana Scott') })
  const report = await verify(countersigned)
  t.equal(report.verdict, 'valid', report.summary)
  const added = report.signatures[0]!.changes.filter((c) => c.kind === 'signature-field')
  t.ok(added.length > 0 && added.every((c) => c.allowed), JSON.stringify(report.signatures[0]!.changes))
})

t.test('an empty signature field added in one revision and signed in a later one is allowed; left unsigned it is not', async (t) => {
  const withEmptyField = await appendUpdate(approved, (doc, context) => {
    const page = doc.getPage(0)
    const field = context.register(context.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Sig', T: PDFHexString.fromText('Next signer'), Rect: [300, 60, 510, 150], F: 4, P: page.ref }))
    page.node.set(PDFName.of('Annots'), context.obj([...(page.node.lookupMaybe(PDFName.of('Annots'), PDFArray)?.asArray() ?? []), field]))
    const form = doc.catalog.lookup(PDFName.of('AcroForm'), PDFDict)
    form.set(PDFName.of('Fields'), context.obj([...form.lookup(PDFName.of('Fields'), PDFArray).asArray(), field]))
    const acroForm = doc.catalog.get(PDFName.of('AcroForm'))
    return [[page.ref, page.node], [field, context.lookup(field)!], acroForm instanceof PDFRef ? [acroForm, form] : [doc.context.trailerInfo.Root as PDFRef, doc.catalog]]
  })
  const pending = await verify(withEmptyField)
  t.equal(pending.verdict, 'invalid', pending.summary)
  t.match(pending.signatures[0]!.changes.find((c) => !c.allowed)?.why, /"Next signer" is added and never signed: a signature field may be added only by signing it/)

  const signedLater = await signField(withEmptyField, { fieldName: 'Next signer', image: stamp, signer: testUserCertificate('Dana Scott') })
  const report = await verify(signedLater)
  t.equal(report.verdict, 'valid', report.summary)
  // Counted from the certification's own revision (the first signature is an update of the original bytes).
  const after = (n: number) => report.signatures[0]!.revision + n
  t.same([...new Set(report.signatures[0]!.changes.map((c) => `${c.revision}:${c.kind}:${c.allowed}`))], [`${after(1)}:signature-field:true`, `${after(2)}:field-value:true`, `${after(2)}:signature:true`])
})
