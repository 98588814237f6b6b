// The verifier against documents changed after signing, each change made by an incremental update
// that keeps every signed byte: the report names the change (revision, object, kind, why) and its
// verdicts agree with pdfsig (integrity) and mupdf's validateChangeHistory() (modifications).
import t from 'tap'
import { freezeDocument, signDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { buildCrl } from '../../../../plugins/signature/pki/build-crl.ts'
import { certificateFields, pemToDer } from '../../../../plugins/signature/pki/certificate-fields.ts'
import { mupdfChangeHistory, pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { addOverlayAnnotation, appendPage, appendUpdate, changePageContent, swapSignatureAppearance } from '../../../fixtures/pdf/incremental-tamper.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testCertificateAuthority, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const ca = testCertificateAuthority()
const anchors = [ca.certificatePem]
// The test CA's current CRL (nothing revoked), as the app hands its own CA's to the verifier: an
// unchecked certificate would make every verdict a warning (issue 35 item 7).
const issuerCrls = [buildCrl([], { privateKey: ca.privateKey, certificate: certificateFields(pemToDer(ca.certificatePem)) }, new Date())]
const verify = (pdf: Uint8Array) => verifyPdf(pdf, { trustAnchors: anchors, issuerCrls })
const stamp = makeStampPng()

// A certified session document: the application certifies (P=2), two people fill their fields.
const slots = [
  { name: 'employee', page: 1, x: 40, y: 60, width: 210, height: 90 },
  { name: 'supervisor', page: 1, x: 300, y: 60, width: 210, height: 90 },
]
let session = await freezeDocument(await makePdf(), { fields: slots, signer: testUserCertificate('Signing Application') })
session = await signField(session, { fieldName: 'employee', image: stamp, signer: testUserCertificate('Alice Martin') })
session = await signField(session, { fieldName: 'supervisor', image: stamp, signer: testUserCertificate('Bruno Diaz') })
// An approval signature, not certified.
const approved = await signDocument(await makePdf(), { stamps: [{ page: 1, x: 40, y: 60, width: 210, height: 90, image: stamp }], signer: testUserCertificate('Chen Wei') })

t.test('the untouched session document: every signature valid, later fills allowed (mupdf: 0)', async (t) => {
  const report = await verify(session)
  t.equal(report.verdict, 'valid', report.summary)
  t.same(report.document.certification, { p: 2, field: 'Certification' })
  t.equal(report.document.revisions, 3)
  t.same(report.signatures.map((s) => [s.field, s.kind, s.revision, s.integrity, s.trust, s.modificationsAfter, s.coversWholeDocument]), [
    ['Certification', 'certification', 1, 'valid', 'trusted', 'allowed', false],
    ['employee', 'approval', 2, 'valid', 'trusted', 'allowed', false],
    ['supervisor', 'approval', 3, 'valid', 'trusted', 'none', true],
  ])
  const kinds = report.signatures[0]!.changes.map((c) => `${c.revision}:${c.kind}:${c.allowed}`)
  t.same(kinds, ['2:field-value:true', '2:signature:true', '3:field-value:true', '3:signature:true'])
  t.match(report.signatures[1]!.signer, { subject: /CN=Alice Martin/, issuer: 'CN=Test Signing CA' })
  t.equal((await mupdfChangeHistory(session)).verdict, 0, 'mupdf agrees: nothing forbidden')
  t.ok((await pdfsig(session)).signatures.every((s) => s.valid), 'pdfsig agrees: all intact')
})

t.test('a byte flipped inside a signed range: integrity invalid, as pdfsig says', async (t) => {
  const flipped = Buffer.from(session)
  // Inside the binary comment on the second line: covered by every signature, read by no parser.
  t.equal(flipped.toString('latin1', 0, 10), '%PDF-1.7\n%')
  flipped[11]! ^= 0x01
  const report = await verify(flipped)
  t.equal(report.verdict, 'invalid')
  for (const signature of report.signatures) {
    t.equal(signature.integrity, 'invalid', signature.field!)
    t.match(signature.summary, /not valid.*digest does not match/)
  }
  const checked = await pdfsig(flipped)
  t.ok(checked.signatures.every((s) => !s.valid), `pdfsig agrees: ${checked.signatures.map((s) => s.validation).join(' / ')}`)
})

t.test('page content changed after the certification: forbidden, named, and mupdf says so too', async (t) => {
  const changed = await appendUpdate(session, changePageContent)
  const report = await verify(changed)
  t.equal(report.verdict, 'invalid')
  t.equal(report.document.revisions, 4)
  for (const signature of report.signatures) {
    t.equal(signature.integrity, 'valid', `${signature.field}: its bytes are intact`)
    t.equal(signature.modificationsAfter, 'forbidden', signature.field!)
  }
  const forbidden = report.signatures[2]!.changes.filter((c) => !c.allowed)
  t.same(forbidden.map((c) => [c.revision, c.kind]), [[4, 'page-content']])
  t.match(forbidden[0]!.why, /Page 1's \/Contents is changed/)
  t.match(forbidden[0]!.object, /^\d+ 0 R$/)
  t.not((await mupdfChangeHistory(changed)).verdict, 0, 'mupdf: forbidden change')
  t.ok((await pdfsig(changed)).signatures.every((s) => s.valid), 'pdfsig alone would still call every signature valid')
})

t.test('an annotation overlay added after the signatures (hidden overlay): forbidden', async (t) => {
  for (const [name, pdf] of [['certified session', session], ['approval only', approved]] as const) {
    const overlaid = await appendUpdate(pdf, addOverlayAnnotation)
    const report = await verify(overlaid)
    t.equal(report.verdict, 'invalid', name)
    const last = report.signatures.at(-1)!
    t.equal(last.modificationsAfter, 'forbidden', name)
    const overlay = last.changes.find((c) => c.kind === 'annotation')
    t.match(overlay, { allowed: false, why: /Square annotation is added on page 1.*hidden overlay/ }, name)
    const mupdf = (await mupdfChangeHistory(overlaid)).verdict
    if (name === 'certified session') t.not(mupdf, 0, 'mupdf: forbidden under P=2')
    else t.comment(`mupdf on the uncertified file: ${mupdf}`)
  }
})

t.test('a signed field\'s appearance swapped: forbidden appearance change', async (t) => {
  const swapped = await appendUpdate(session, swapSignatureAppearance('employee'))
  const report = await verify(swapped)
  t.equal(report.verdict, 'invalid')
  const change = report.signatures[2]!.changes.find((c) => !c.allowed)
  t.match(change, { revision: 4, kind: 'appearance', why: /appearance of the field "employee" is swapped/ })
  // mupdf permits widget appearance changes under P=2 (form filling regenerates them), so it lets
  // this "replace" shadow attack through; the verifier is stricter on purpose for signed fields.
  t.equal((await mupdfChangeHistory(swapped)).verdict, 0, 'mupdf does not see it (a known blind spot)')
  t.ok((await pdfsig(swapped)).signatures.every((s) => s.valid), 'nor does pdfsig')
})

t.test('a page appended after signing: forbidden new page', async (t) => {
  for (const pdf of [session, approved]) {
    const longer = await appendUpdate(pdf, appendPage)
    const report = await verify(longer)
    t.equal(report.document.pages, 2)
    t.equal(report.verdict, 'invalid')
    t.ok(report.signatures.at(-1)!.changes.some((c) => c.kind === 'new-page' && !c.allowed), JSON.stringify(report.signatures.at(-1)!.changes))
    const mupdf = (await mupdfChangeHistory(longer)).verdict
    if (pdf === session) t.not(mupdf, 0, 'mupdf: forbidden')
  }
})

t.test('a certificate from a CA nobody trusts: intact but untrusted, a warning', async (t) => {
  const report = await verifyPdf(approved, { trustAnchors: [] })
  t.equal(report.signatures[0]!.integrity, 'valid')
  t.equal(report.signatures[0]!.trust, 'untrusted')
  t.equal(report.verdict, 'warning')
  t.match(report.signatures[0]!.summary, /does not lead to a trusted certificate authority/)
})

t.test('an unsigned file: no signatures', async (t) => {
  const report = await verify(await makePdf({ pages: 3 }))
  t.same(report.signatures, [])
  t.equal(report.document.pages, 3)
  t.equal(report.document.certification, null)
  t.equal(report.summary, 'The document carries no signature.')
})
