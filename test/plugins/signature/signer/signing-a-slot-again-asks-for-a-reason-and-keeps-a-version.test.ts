// Issue 20, item 4: a signed record stays findable — /api/signables says who signed which slot and
// when, with the download for those who may open it — and signing the same slot again is never
// silent: without a reason it is refused (409, nothing written); with one it is the next version,
// and the reason is kept on the row and in the signed PDF.
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { EMPLOYEE_BOX, finalize, signerWithSignature } from '../signing/helpers.ts'

const run = promisify(execFile)
t.setTimeout(120_000)

t.test('sign once, refused again without a reason, signed again with one: two versions', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const manager = await signerWithSignature(app, DEMO.manager.email, 'Max')
  const body = { signature: staff.signature, signable: 'dtr-staff-2026-03', placements: [EMPLOYEE_BOX] }
  const rows = async () => (await app.signature.signatures.db.selectFrom('digital_signatures').select('uuid').where('signable_id', '=', 'dtr-staff-2026-03').execute()).length
  const signedOf = async (cookie: string) => {
    const list = (await app.inject({ url: '/api/signables/daily-time-record', headers: { cookie } })).json().data as Array<{ id: string; signed: Array<Record<string, unknown>> }>
    return list.find((r) => r.id === 'dtr-staff-2026-03')!.signed
  }

  t.same(await signedOf(staff.cookie), [], 'nothing signed yet')
  const first = await finalize(app, staff, 'daily-time-record', body)
  t.equal(first.statusCode, 200, first.body)
  const firstUuid = first.json().data.signature_uuid as string
  t.match(await signedOf(staff.cookie), [{ slot: 'employee', signer: { id: DEMO.staff.id, name: 'Sam Staff' }, version: 1, reason: null, uuid: firstUuid, downloadUrl: `/api/signatures/${firstUuid}/document` }])
  t.match(await signedOf(manager.cookie), [{ slot: 'employee', signer: { id: DEMO.staff.id }, version: 1, downloadUrl: null }], 'the supervisor sees that it is signed, but may not download the employee\'s copy')

  const again = await finalize(app, staff, 'daily-time-record', body)
  t.equal(again.statusCode, 409)
  t.equal(again.json().code, 'ERR_ALREADY_SIGNED')
  t.match(again.json().message, /"employee" on \d{4}-\d{2}-\d{2}/, 'the refusal says which slot and when')
  t.equal(await rows(), 1, 'nothing written for the refusal')

  const tooShort = await finalize(app, staff, 'daily-time-record', { ...body, reason: ' x ' })
  t.equal(tooShort.statusCode, 400)
  t.match(tooShort.json().message, /body\.reason/)

  const reason = 'The hours of the 3rd were corrected'
  const second = await finalize(app, staff, 'daily-time-record', { ...body, reason })
  t.equal(second.statusCode, 200, second.body)
  const secondUuid = second.json().data.signature_uuid as string
  t.match(await signedOf(staff.cookie), [{ version: 1, uuid: firstUuid, reason: null }, { version: 2, uuid: secondUuid, reason }], 'both versions, oldest first')
  t.equal(await rows(), 2)

  const pdf = await app.inject({ url: `/api/signatures/${secondUuid}/document`, headers: { cookie: staff.cookie } })
  t.equal(pdf.statusCode, 200)
  const file = t.testdir({ 'second.pdf': pdf.rawPayload })
  const { stdout } = await run('pdfsig', [`${file}/second.pdf`])
  t.match(stdout, 'Signature is Valid.')
  // qpdf (not ours) decodes the signature dictionary's /Reason string, however it was encoded.
  const { stdout: json } = await run('qpdf', ['--json', '--json-key=qpdf', `${file}/second.pdf`], { maxBuffer: 64 * 1024 * 1024 })
  const reasons = JSON.stringify(JSON.parse(json)).match(/"\/Reason":"[^"]*"/g) ?? []
  t.ok(reasons.some((r) => r.includes(`signed again: ${reason}`)), `the PDF's /Reason says why it was signed again (${reasons.join(' ')})`)
})
