// Archive renewal of a document signed in one pass: POST /api/signatures/:uuid/renew-timestamp
// (its signer, or signatures:read-any) appends a new document timestamp to the stored copy and
// moves the row to the new file; the old file stays, a prefix of the new one. The command's
// function renews what is due and leaves the rest; strangers and session revisions are refused.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { mupdfChangeHistory, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(120_000)

t.test('the signer renews; the new copy keeps the old as a prefix, ends with one more document timestamp, and is served', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const signed = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf: Buffer.from(await makePdf()).toString('base64'), placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }] } })
  t.equal(signed.statusCode, 200, signed.body.slice(0, 200))
  const uuid = signed.headers['x-signature-uuid'] as string
  const before = await app.signature.signatures.find(uuid)

  const stranger = await login(app, DEMO.manager.email)
  const refused = await app.inject({ method: 'POST', url: `/api/signatures/${uuid}/renew-timestamp`, headers: { cookie: stranger }, payload: {} })
  t.equal(refused.statusCode, 404, 'someone else\'s document is not found')
  t.equal(refused.json().code, 'ERR_LTV_DOCUMENT_NOT_FOUND')
  t.same(await app.signature.signatures.find(uuid), before, 'and nothing moved')

  const renewed = await app.inject({ method: 'POST', url: `/api/signatures/${uuid}/renew-timestamp`, headers: { cookie: staff.cookie }, payload: {} })
  t.equal(renewed.statusCode, 200, renewed.body)
  const after = await app.signature.signatures.find(uuid)
  t.not(after!.document_key, before!.document_key, 'a new file')
  t.equal(renewed.json().data.document_sha256, after!.document_sha256)
  t.ok(await app.signature.disk.exists(before!.document_key!), 'the old file stays')
  const served = (await app.inject({ url: `/api/signatures/${uuid}/document`, headers: { cookie: staff.cookie } })).rawPayload
  t.ok(served.subarray(0, signed.rawPayload.length).equals(signed.rawPayload), 'the first copy is a byte prefix of the served one')
  const { signatures, output } = await pdfsig(served)
  t.same(signatures.map((s) => s.fieldName), ['Signature', 'Document timestamp', 'Document timestamp 2'], output)
  t.ok(signatures[0]!.valid, output)
  t.ok((await qpdfCheck(served)).clean)
  t.equal((await mupdfChangeHistory(served)).verdict, 0, 'mupdf: no forbidden change (the DSS already held every certificate)')

  const none = await app.signature.documents.renewDueTimestamps({ beforeDays: 1 })
  t.same(none.map((r) => [r.uuid, r.outcome]), [[uuid, 'not-due']], 'a TSA certificate valid for years: not due in a day')
  const due = await app.signature.documents.renewDueTimestamps({ beforeDays: 365 * 20 })
  t.same(due.map((r) => [r.uuid, r.outcome]), [[uuid, 'renewed']], 'due within twenty years: renewed')
  const third = await pdfsig((await app.inject({ url: `/api/signatures/${uuid}/document`, headers: { cookie: staff.cookie } })).rawPayload)
  t.equal(third.signatures.length, 4, 'one more document timestamp')
})

t.test('a session signer\'s revision is renewed through its session, not here', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  // A row whose document is a session revision (what a session signer's row looks like).
  const signed = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf: Buffer.from(await makePdf()).toString('base64'), placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }] } })
  const uuid = signed.headers['x-signature-uuid'] as string
  const row = (await app.signature.signatures.find(uuid))!
  await app.signature.disk.put('sessions/s-1/002-employee.pdf', signed.rawPayload)
  await app.signature.signatures.update(uuid, { document_key: 'sessions/s-1/002-employee.pdf' })
  const refused = await app.inject({ method: 'POST', url: `/api/signatures/${uuid}/renew-timestamp`, headers: { cookie: staff.cookie }, payload: {} })
  t.equal(refused.statusCode, 409, refused.body)
  t.equal(refused.json().code, 'ERR_LTV_NOT_APPLICABLE')
  t.equal((await app.signature.signatures.find(uuid))!.document_sha256, row.document_sha256, 'nothing written')
})
