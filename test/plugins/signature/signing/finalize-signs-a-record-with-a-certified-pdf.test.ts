import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRef } from 'pdf-lib'
import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { inkShare, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { EMPLOYEE_BOX, finalize, signerWithSignature } from './helpers.ts'

/** /Perms /DocMDP in the catalog and the P of the signature's /Reference, read with pdf-lib's plain objects. */
async function docMdpOf(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false })
  const permsRef = doc.catalog.lookupMaybe(PDFName.of('Perms'), PDFDict)?.get(PDFName.of('DocMDP'))
  const signature = permsRef instanceof PDFRef ? doc.context.lookup(permsRef, PDFDict) : undefined
  const reference = signature?.lookupMaybe(PDFName.of('Reference'), PDFArray)?.lookup(0, PDFDict)
  return {
    permsRef,
    transformMethod: reference?.lookupMaybe(PDFName.of('TransformMethod'), PDFName)?.asString(),
    p: reference?.lookupMaybe(PDFName.of('TransformParams'), PDFDict)?.lookupMaybe(PDFName.of('P'), PDFNumber)?.asNumber(),
  }
}

t.test('production finalize: the employee signs their time record; pdfsig, qpdf, DocMDP P=2, the stamp in its box', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const res = await finalize(app, staff, 'daily-time-record', { signature: staff.signature, signable: 'dtr-staff-2026-03', placements: [EMPLOYEE_BOX] })
  t.equal(res.statusCode, 200, res.body)
  const answer = res.json().data
  t.match(answer, { status: 'signed', signature_uuid: /^[0-9a-f-]{36}$/, signed_document_path: /^signed\/.+\.pdf$/, signed_at: /^\d{4}-\d\d-\d\dT/ })
  t.not(answer.signature_uuid, staff.signature, 'a child signature, not the library one')

  const download = await app.inject({ url: `/api/signatures/${answer.signature_uuid}/document`, headers: { cookie: staff.cookie } })
  t.equal(download.statusCode, 200)
  t.equal(download.headers['content-type'], 'application/pdf')
  const pdf = download.rawPayload
  t.same(pdf, await app.signature.disk.get(answer.signed_document_path), 'the download is the file at signed_document_path')

  const { signatures, output } = await pdfsig(pdf)
  // B-LTA (issue 18): the signature, then a DSS and a document timestamp covering the whole file.
  t.same(signatures.map((s) => s.fieldName), ['Signature', 'Document timestamp'], output)
  t.equal(signatures[0]!.validation, 'Signature is Valid.')
  t.ok(signatures[1]!.totalDocumentSigned, 'the document timestamp covers the whole document')
  t.equal(signatures[0]!.commonName, 'Sam Staff')
  t.ok((await qpdfCheck(pdf)).clean, 'qpdf --check is clean')
  const mdp = await docMdpOf(pdf)
  t.ok(mdp.permsRef instanceof PDFRef, 'catalog /Perms /DocMDP')
  t.equal(mdp.transformMethod, '/DocMDP')
  t.equal(mdp.p, 2)
  const [ink] = await inkShare(pdf, 1, [EMPLOYEE_BOX], 72)
  t.ok(ink! > 0.05, `the stamp is visible inside its box (${(ink! * 100).toFixed(1)} % ink)`)

  const row = await app.signature.signatures.find(answer.signature_uuid)
  t.match(row, { user_id: DEMO.staff.id, source_uuid: staff.signature, signable_type: 'daily-time-record', signable_id: 'dtr-staff-2026-03', status: 'signed', document_key: answer.signed_document_path })
  const positions = await app.signature.signatures.positions(answer.signature_uuid)
  t.match(positions, [{ slot_key: 'employee', template_key: 'daily-time-record', page: 1, x: 72, y: 66, width: 240, height: 48 }])

  const tampered = Buffer.from(pdf)
  const at = tampered.indexOf('/Type /Page') + 2
  tampered[at] = tampered[at] === 0x54 ? 0x55 : 0x54
  const after = await pdfsig(tampered)
  t.not(after.signatures[0]?.validation, 'Signature is Valid.', `one changed byte: ${after.signatures[0]?.validation}`)
  t.match(after.output, /Digest Mismatch|mismatch|Invalid|not valid/i)
})
