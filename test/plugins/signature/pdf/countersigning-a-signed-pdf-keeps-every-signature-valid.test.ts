// A PDF that is already signed — by this engine (certified, P=2) or by another tool (@libpdf/core,
// ending in a cross-reference stream) — gets a further signature as an incremental update: the
// earlier file is an unchanged prefix, pdfsig calls every signature valid, qpdf finds the file
// sound and the verifier calls the change a permitted one. A certification with P=1 refuses it.
import { P12Signer as LibPdfP12Signer, PDF } from '@libpdf/core'
import t from 'tap'
import { countersignDocument, signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { inkShare, mupdfChangeHistory, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testCertificateAuthority, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const image = makeStampPng()
const first = { page: 1, x: 300, y: 200, width: 200, height: 80, image }
const second = { page: 1, x: 60, y: 500, width: 200, height: 80, image }
const anchors = [testCertificateAuthority().certificatePem]

/** What the newest cross-reference section is, read from the bytes after the last startxref. */
function lastSection(pdf: Uint8Array): 'table' | 'stream' {
  const text = Buffer.from(pdf).toString('latin1')
  const at = Number(/startxref\s+(\d+)/.exec(text.slice(text.lastIndexOf('startxref')))![1])
  return text.startsWith('xref', at) ? 'table' : /^\d+ \d+ obj\s*<<[^]*?\/Type\s*\/XRef/.test(text.slice(at, at + 400)) ? 'stream' : 'table'
}

t.test('a document this engine certified (P=2): the second signature is appended and both are valid', async (t) => {
  const certified = await signDocument(await makePdf(), { stamps: [first], signer: testUserCertificate('Alice'), certify: {} })
  const both = await countersignDocument(certified, { stamps: [second], signer: testUserCertificate('Bob') })
  t.ok(Buffer.from(both.subarray(0, certified.length)).equals(Buffer.from(certified)), 'the certified file is an unchanged prefix')
  const { signatures, output } = await pdfsig(both)
  t.same(signatures.map((s) => [s.commonName, s.valid, s.totalDocumentSigned]), [['Alice', true, false], ['Bob', true, true]], output)
  t.ok((await qpdfCheck(both)).clean)
  const report = await verifyPdf(both, { trustAnchors: anchors })
  t.same(report.signatures.map((s) => [s.integrity, s.modificationsAfter]), [['valid', 'allowed'], ['valid', 'none']], report.summary)
  const [ink] = await inkShare(both, 1, [second])
  t.ok(ink! > 0.01, `the new stamp shows where it was placed (ink ${ink})`)
  // mupdf's own check refuses any change to a page dictionary once a signature restricts changes
  // (the widget must be listed in the page's /Annots), so it is reported here, not asserted.
  t.comment(`mupdf validateChangeHistory: ${JSON.stringify(await mupdfChangeHistory(both))}`)
})

t.test('a document @libpdf/core signed, ending in a cross-reference stream: the update continues with one', async (t) => {
  const alice = testUserCertificate('Alice Lib')
  const doc = await PDF.load(await makePdf({ objectStreams: true }))
  const { bytes: signed } = await doc.sign({ signer: await LibPdfP12Signer.create(alice.p12, alice.password), level: 'B-B' })
  t.equal(lastSection(signed), 'stream', 'control: libpdf ends with a cross-reference stream')
  const both = await countersignDocument(signed, { stamps: [second], signer: testUserCertificate('Bob') })
  t.equal(lastSection(both), 'stream', 'the appended section is a cross-reference stream too')
  t.ok(Buffer.from(both.subarray(0, signed.length)).equals(Buffer.from(signed)), 'libpdf\'s file is an unchanged prefix')
  const { signatures, output } = await pdfsig(both)
  t.same(signatures.map((s) => [s.commonName, s.valid, s.totalDocumentSigned]), [['Alice Lib', true, false], ['Bob', true, true]], output)
  const qpdf = await qpdfCheck(both)
  t.ok(qpdf.clean, qpdf.output)
  t.same(await mupdfChangeHistory(both), { verdict: 0, versions: 3 }, 'mupdf: no forbidden change (libpdf\'s signature restricts none)')
  const report = await verifyPdf(both, { trustAnchors: anchors })
  t.same(report.signatures.map((s) => s.modificationsAfter), ['allowed', 'none'], report.summary)
})

t.test('refused with a clear code, before anything is built', async (t) => {
  const locked = await signDocument(await makePdf(), { stamps: [first], signer: testUserCertificate('Alice'), certify: { p: 1 } })
  await t.rejects(countersignDocument(locked, { stamps: [second], signer: testUserCertificate('Bob') }), { code: 'ERR_PDF_NO_CHANGES_ALLOWED', statusCode: 409 })
  const open = await signDocument(await makePdf(), { stamps: [first], signer: testUserCertificate('Alice') })
  await t.rejects(countersignDocument(open, { stamps: [second, { ...second, y: 300 }], signer: testUserCertificate('Bob') }), { code: 'ERR_COUNTERSIGN_ONE_PLACEMENT', statusCode: 422 })
  await t.rejects(countersignDocument(open, { stamps: [{ ...second, page: 2 }], signer: testUserCertificate('Bob') }), { code: 'ERR_PAGE_OUT_OF_RANGE' })
})
