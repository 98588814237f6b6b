// The n-th signer parses the document without the earlier signatures' values (a copy with the
// same offsets), appends to the original, and every signature stays valid.
import { PDFDict, PDFDocument, PDFHexString, PDFName, PDFString } from 'pdf-lib'
import t from 'tap'
import { freezeDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { withSignatureContentsSkipped } from '../../../../plugins/signature/pdf/signature-contents-skipped.ts'
import { mupdfChangeHistory, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const application = testUserCertificate('Signing Application')
const signers = ['Alice Martin', 'Bruno Diaz', 'Chen Wei'].map((name) => testUserCertificate(name))
const image = makeStampPng()
const slots = signers.map((_, i) => ({ name: `signer-${i + 1}`, page: 1, x: 40 + 180 * i, y: 60, width: 160, height: 80 }))

async function signedBy(count: number): Promise<Uint8Array> {
  let pdf = await freezeDocument(await makePdf(), { fields: slots, signer: application })
  for (let i = 0; i < count; i++) pdf = await signField(pdf, { fieldName: `signer-${i + 1}`, image, signer: signers[i]! })
  return pdf
}

function contentsOfSignatures(doc: PDFDocument): string[] {
  return doc.context.enumerateIndirectObjects()
    .filter(([, object]) => object instanceof PDFDict && object.has(PDFName.of('ByteRange')))
    .map(([, object]) => (object as PDFDict).get(PDFName.of('Contents'))!.toString())
}

t.test('the parse copy keeps every offset and empties only signature values', async (t) => {
  const pdf = await signedBy(2)
  const before = Buffer.from(pdf)
  const copy = withSignatureContentsSkipped(pdf)
  t.ok(Buffer.from(pdf).equals(before), 'the original is untouched')
  t.equal(copy.length, pdf.length, 'same length: every cross-reference offset stays true')

  const original = await PDFDocument.load(pdf, { updateMetadata: false })
  const parsed = await PDFDocument.load(copy, { updateMetadata: false })
  const full = contentsOfSignatures(original)
  t.equal(full.length, 3, 'certification + 2 signatures')
  t.ok(full.every((hex) => hex.length > 1000), 'the original holds the signature values')
  t.same(contentsOfSignatures(parsed), ['<>', '<>', '<>'], 'the copy parses with every value empty')
  t.equal(parsed.getPageCount(), original.getPageCount())

  // Outside the emptied values, not one byte differs.
  const changed: number[] = []
  for (let i = 0; i < pdf.length; i++) if (copy[i] !== pdf[i]) changed.push(i)
  const text = Buffer.from(pdf).toString('latin1')
  const ranges = [...text.matchAll(/\/Contents\s*<([0-9A-Fa-f]+)>/g)].map((m) => [m.index! + m[0].indexOf('<') + 1, m.index! + m[0].length])
  t.ok(changed.every((i) => ranges.some(([from, to]) => i >= from! && i < to!)), 'only bytes inside signature values changed')
})

t.test('a long hex /Contents outside a signature dictionary is left alone', async (t) => {
  const doc = await PDFDocument.create()
  const page = doc.addPage()
  const note = doc.context.obj({ Type: 'Annot', Subtype: 'Text', Rect: [10, 10, 50, 50], Contents: PDFHexString.of('41'.repeat(2000)) })
  page.node.set(PDFName.of('Annots'), doc.context.obj([doc.context.register(note)]))
  page.node.set(PDFName.of('Note'), PDFString.of('no signature here'))
  const pdf = await doc.save({ useObjectStreams: false })
  t.equal(withSignatureContentsSkipped(pdf), pdf, 'nothing to skip: the same bytes, not a copy')
})

t.test('the third signer, parsing the skipped copy, appends to the original and leaves all four signatures valid', async (t) => {
  const two = await signedBy(2)
  const pdf = await signField(two, { fieldName: 'signer-3', image, signer: signers[2]! })
  t.ok(Buffer.from(pdf.subarray(0, two.length)).equals(Buffer.from(two)), 'the earlier revision is a byte prefix, values included')
  const report = await pdfsig(pdf)
  t.equal(report.signatures.length, 4)
  t.ok(report.signatures.every((s) => s.valid), 'every signature valid, by pdfsig')
  t.equal((await mupdfChangeHistory(pdf)).verdict, 0, 'mupdf: no change outside what DocMDP allows')
  t.ok((await qpdfCheck(pdf)).clean, 'qpdf --check')
})
