// A single signature (/api/sign) is written with its DSS and document timestamp already appended:
// the file on the disk and the answer are B-LTA, the signed revision inside it is unchanged, and
// pdfsig, qpdf and mupdf agree. A TSA that does not answer writes nothing (see the timestamps tests).
import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { mupdfChangeHistory, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { dssStreams } from '../../../fixtures/pdf/pades-parts.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(120_000)

/** The file as its first signature covers it: signDocument's output may end without a newline after %%EOF. */
function signedRevisionOf(pdf: Buffer): Buffer {
  const [, , , c, d] = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/.exec(pdf.toString('latin1'))!.map(Number)
  return pdf.subarray(0, c! + d!)
}

/** The file as it was `n` incremental updates (of ours: each ends with a newline) ago. */
function revisionsAgo(pdf: Buffer, n: number): Buffer {
  let end = pdf.length
  for (let i = 0; i <= n; i++) end = pdf.lastIndexOf('%%EOF', end - 1, 'latin1')
  return pdf.subarray(0, end + 6)
}

t.test('/api/sign answers and stores a B-LTA document', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const signed = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf: Buffer.from(await makePdf()).toString('base64'), placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }] } })
  t.equal(signed.statusCode, 200, signed.body.slice(0, 200))
  const pdf = signed.rawPayload
  const stored = await app.inject({ url: `/api/signatures/${signed.headers['x-signature-uuid']}/document`, headers: { cookie: staff.cookie } })
  t.ok(stored.rawPayload.equals(pdf), 'the stored file is the one answered')

  const { signatures, output } = await pdfsig(pdf)
  // pdfsig 22.12 lists an ETSI.RFC3161 document timestamp but does not check it ("Unimplemented
  // Feature"): openssl ts -verify does, in the session test.
  t.same(signatures.map((s) => [s.fieldName, s.valid, s.totalDocumentSigned]), [['Signature', true, false], ['Document timestamp', false, true]], output)
  t.match(signatures[1]!.validation, /not yet been verified/)
  const signedRevision = signedRevisionOf(pdf)
  const alone = await pdfsig(signedRevision)
  t.same(alone.signatures.map((s) => [s.valid, s.totalDocumentSigned]), [[true, true]], 'two updates back: the signed file as signDocument made it')
  t.ok((await qpdfCheck(pdf)).clean)
  t.ok((await qpdfCheck(signedRevision)).clean, 'the signed revision, its /DSS reserved but not yet defined, is clean too')
  t.equal((await mupdfChangeHistory(revisionsAgo(pdf, 1))).verdict, 0, 'mupdf: the DSS under DocMDP P=2')
  t.equal((await mupdfChangeHistory(pdf)).verdict, 0, 'mupdf: the document timestamp under DocMDP P=2')
  const dss = await dssStreams(pdf)
  t.equal(dss.vriKeys.length, 1)
  t.ok(dss.ocsps.length === 1 && dss.crls.length === 1, `one OCSP answer for the signer and the TSA, and the CRL (${dss.ocsps.length}, ${dss.crls.length})`)

  const report = (await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: pdf })).json()
  t.equal(report.verdict, 'valid', `${report.summary} ${JSON.stringify(report.signatures.map((s: any) => s.problems))}`)
  t.equal(report.document.level, 'B-LTA', 'the report says which level the document reaches')
  const bt = (await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: signedRevision })).json()
  t.equal(bt.document.level, 'B-T', 'the signed revision alone: B-T')
  t.match(report.signatures, [{ kind: 'certification', level: 'B-LTA', revocationSource: 'dss', revocation: 'good' }, { kind: 'document-timestamp', integrity: 'valid' }])
})
