// /api/sign on a PDF somebody already signed: the manager's signature is appended to the staff
// member's signed copy, and both stay valid (pdfsig). A certification that allows no change, or
// several placements on a signed PDF, are refused with their codes and nothing is written.
import { readdir } from 'node:fs/promises'
import t from 'tap'
import { signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'
import { signerWithSignature } from './helpers.ts'

const first = { page: 1, x: 300, y: 200, width: 200, height: 80 }
const second = { page: 1, x: 60, y: 450, width: 200, height: 80 }

t.test('a signed copy signed again by another person keeps the first signature valid', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const manager = await signerWithSignature(app, DEMO.manager.email)
  const sign = (who: typeof staff, pdf: Uint8Array, placements: object[]) => app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: who.cookie }, payload: { signature: who.signature, pdf: Buffer.from(pdf).toString('base64'), placements } })

  const once = await sign(staff, await makePdf(), [first])
  t.equal(once.statusCode, 200, once.body.slice(0, 300))
  const twice = await sign(manager, once.rawPayload, [second])
  t.equal(twice.statusCode, 200, twice.body.slice(0, 300))
  t.ok(twice.rawPayload.subarray(0, once.rawPayload.length).equals(once.rawPayload), 'the staff member\'s copy is an unchanged prefix')
  const { signatures, output } = await pdfsig(twice.rawPayload)
  // Each stored copy ends with a document timestamp (B-LTA), which pdfsig lists but cannot check.
  t.same(signatures.map((s) => s.fieldName), ['Signature', 'Document timestamp', 'Signature 2', 'Document timestamp 2'], output)
  const people = signatures.filter((s) => !s.fieldName.startsWith('Document timestamp'))
  t.same(people.map((s) => [s.commonName, s.valid]), [['Sam Staff', true], ['Max Manager', true]], output)
  t.ok(signatures.at(-1)!.totalDocumentSigned, 'the last document timestamp covers the whole file')
  const stored = await app.inject({ url: twice.headers.location as string, headers: { cookie: manager.cookie } })
  t.ok(stored.rawPayload.equals(twice.rawPayload), 'the manager\'s signed copy is stored as answered')
})

t.test('P=1 and several placements on a signed PDF are refused, and nothing is written', async (t) => {
  const app = await buildTestApp(t)
  const manager = await signerWithSignature(app, DEMO.manager.email)
  const image = makeStampPng()
  const locked = await signDocument(await makePdf(), { stamps: [{ ...first, image }], signer: testUserCertificate('Elsewhere'), certify: { p: 1 } })
  const signedElsewhere = await signDocument(await makePdf(), { stamps: [{ ...first, image }], signer: testUserCertificate('Elsewhere'), certify: {} })
  const sign = (pdf: Uint8Array, placements: object[]) => app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: manager.cookie }, payload: { signature: manager.signature, pdf: Buffer.from(pdf).toString('base64'), placements } })

  const noChanges = await sign(locked, [second])
  t.equal(noChanges.statusCode, 409, noChanges.body)
  t.equal(noChanges.json().code, 'ERR_PDF_NO_CHANGES_ALLOWED')
  const several = await sign(signedElsewhere, [second, { ...second, y: 300 }])
  t.equal(several.statusCode, 422, several.body)
  t.equal(several.json().code, 'ERR_COUNTERSIGN_ONE_PLACEMENT')
  t.same(await readdir(app.signature.disk.path('signed')).catch(() => []), [], 'no signed file')
  const rows = await app.signature.signatures.db.selectFrom('digital_signatures').select('uuid').where('source_uuid', 'is not', null).execute()
  t.same(rows, [], 'no signature row for a document')
})
