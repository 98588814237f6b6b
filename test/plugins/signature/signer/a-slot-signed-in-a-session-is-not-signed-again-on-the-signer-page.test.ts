// Issue 39, item 1: a contract completed in a session (employer, then employee) holds both
// signatures and the app's certification in one document. "Sign again" on the signer page used to
// render the record afresh and sign it alone: a new version signed only by the re-signer, while the
// list showed both signers. A filled field of a certified document cannot be filled again, so the
// signer page refuses (409 ERR_ALREADY_SIGNED_IN_SESSION, pointing to a new session), writes
// nothing, and neither the page nor the list offers it.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { csrfFor } from '../../../helpers/pages.ts'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { finalize, meta, signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(240_000)

t.test('signing again a slot signed in a session is refused and not offered', async (t) => {
  const app = await buildTestApp(t)
  const admin = await signerWithSignature(app, DEMO.admin.email, 'Ada')
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const created = await app.inject({
    method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin.cookie, 'x-csrf-token': admin.csrf },
    payload: { template: 'contract', signable: 'contract-staff', mode: 'sequential', signers: [{ slot: 'employer' }, { slot: 'employee' }] },
  })
  t.equal(created.statusCode, 201, created.body)
  const session = created.json().data
  for (const [signer, request] of [[admin, session.requests[0]], [staff, session.requests[1]]] as const) {
    const signed = await finalize(app, signer, 'contract', { signature: signer.signature, request: request.id, placements: [] })
    t.equal(signed.statusCode, 200, signed.body)
  }
  const document = await app.inject({ url: `/api/signing-sessions/${session.id}/document`, headers: { cookie: staff.cookie } })
  const together = (await pdfsig(document.rawPayload)).signatures.filter((s) => s.signed && !s.totalDocumentSigned)
  t.equal(together.length, 3, 'the session\'s document: certification, employer, employee')

  const rows = async () => (await app.signature.signatures.db.selectFrom('digital_signatures').select('uuid').where('signable_id', '=', 'contract-staff').where('status', '=', 'signed').execute()).length
  const before = await rows()
  const again = await finalize(app, staff, 'contract', {
    signature: staff.signature, signable: 'contract-staff', reason: 'A clause was corrected',
    placements: [{ slot: 'employee', page: 2, x: 311, y: 112, width: 220, height: 54 }],
  })
  if (again.statusCode === 200) {
    // What the defect produced: say how many signatures the "new version" holds.
    const pdf = await app.inject({ url: again.json().data.download_url, headers: { cookie: staff.cookie } })
    const { signatures } = await pdfsig(pdf.rawPayload)
    t.fail(`signed again outside the session: the new version holds ${signatures.filter((s) => s.signed).length} signature(s): ${signatures.map((s) => s.commonName || s.fieldName).join(', ')}`)
  }
  t.equal(again.statusCode, 409, again.body)
  t.equal(again.json().code, 'ERR_ALREADY_SIGNED_IN_SESSION')
  t.match(again.json().message, /session/i, 'the refusal points to a new session')
  t.equal(await rows(), before, 'nothing written')

  // The page refuses before anything is drawn, with the same code; the list offers no signing.
  const opened = await meta(app, staff, 'contract', { signature: staff.signature, signable: 'contract-staff' })
  t.equal(opened.statusCode, 409, opened.body)
  t.equal(opened.json().code, 'ERR_ALREADY_SIGNED_IN_SESSION')
  const list = (await app.inject({ url: '/api/signables/contract', headers: { cookie: staff.cookie } })).json().data as Array<{ id: string; signable: string[]; signed: Array<{ slot: string; inSession: boolean }> }>
  const contract = list.find((r) => r.id === 'contract-staff')!
  t.same(contract.signable, [], 'nothing left for Sam to sign on the signer page')
  t.same(contract.signed.map((s) => [s.slot, s.inSession]), [['employer', true], ['employee', true]])
  // Another record of Sam's, signed on the signer page, still offers signing again (with a reason).
  const cookie = await login(app, DEMO.staff.email)
  const dtr = (await app.inject({ url: '/api/signables/daily-time-record', headers: { cookie } })).json().data as Array<{ id: string; signable: string[] }>
  t.same(dtr.find((r) => r.id === 'dtr-staff-2026-03')!.signable, ['employee'])
  t.ok(await csrfFor(app, cookie))
})
