// The whole path over HTTP in the real app: admin creates a session for a daily time record
// (employee, then supervisor), each signer finds it with ?mine=1, opens the inbox page, signs
// through the signer's finalize with request=, and the downloaded PDF passes pdfsig.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { csrfFor, getPage } from '../../../helpers/pages.ts'
import { imageInkShare, mupdfChangeHistory, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'

t.setTimeout(240_000)

t.test('admin creates, staff then manager sign, every signature valid', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  const manager = await login(app, DEMO.manager.email)
  const image = `data:image/png;base64,${makeStampPng().toString('base64')}`
  const signatureOf: Record<string, string> = {}
  for (const [who, cookie] of [['staff', staff], ['manager', manager]] as const) {
    const res = await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie }, payload: { label: 'Mine', image, certificate: { mode: 'issue' } } })
    t.equal(res.statusCode, 201, res.body)
    signatureOf[who] = res.json().data.uuid
  }

  const forbidden = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: staff }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03' } })
  t.equal(forbidden.statusCode, 403, 'staff may not create sessions')
  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'sequential' } })
  t.equal(created.statusCode, 201, created.body)
  const session = created.json().data
  t.same(session.requests.map((r: any) => [r.slot, r.signer.id]), [['employee', DEMO.staff.id], ['supervisor', DEMO.manager.id]])
  t.match(session.requests[0].signerUrl, /^\/app\/signature-templates\/daily-time-record\/sign\/[0-9a-f-]{36}\?request=/)

  const inbox = await app.inject({ method: 'GET', url: '/api/signing-sessions?mine=1', headers: { cookie: staff } })
  t.same(inbox.json().data.map((i: any) => [i.slot, i.yourTurn]), [['employee', true]])
  const signerPage = await getPage(app, session.requests[0].signerUrl, staff)
  t.equal(signerPage.statusCode, 200)
  t.match(signerPage.body, 'Daily time record - Sam Staff', 'the signer page names the record in session mode too')
  const page = await getPage(app, '/app/inbox', staff)
  t.equal(page.statusCode, 200)
  t.match(page.body, 'data-sign-link')

  const finalize = async (cookie: string, who: 'staff' | 'manager', requestId: string) => app.inject({
    method: 'POST', url: '/app/signature-templates/daily-time-record/signer/finalize',
    headers: { cookie, 'x-csrf-token': await csrfFor(app, cookie) }, payload: { signature: signatureOf[who], request: requestId, placements: [] },
  })
  const early = await finalize(manager, 'manager', session.requests[1].id)
  t.equal(early.statusCode, 409, `supervisor first: ${early.body}`)
  const other = await finalize(manager, 'manager', session.requests[0].id)
  t.equal(other.statusCode, 403, 'someone else\'s request')
  const first = await finalize(staff, 'staff', session.requests[0].id)
  t.equal(first.statusCode, 200, first.body)
  // The signer page then shows the revision this signer made, from the same URLs as outside a session.
  const signedByStaff = first.json().data
  t.equal(signedByStaff.download_url, `/api/signatures/${signedByStaff.signature_uuid}/document`)
  const signedPage = await app.inject({ url: signedByStaff.page_image_url.replace('/pages/0', '/pages/1'), headers: { cookie: staff } })
  t.equal(signedPage.statusCode, 200)
  t.equal(signedPage.headers['content-type'], 'image/png')
  const dpi = app.signature.pageImages.dpi
  const pageHeight = signedPage.rawPayload.readUInt32BE(20) * 72 / dpi
  const [ink] = await imageInkShare(signedPage.rawPayload, pageHeight, [session.requests[0].placement], dpi)
  t.ok(ink! > 0.05, `the staff stamp is on the page image (ink ${ink!.toFixed(3)})`)
  const second = await finalize(manager, 'manager', session.requests[1].id)
  t.equal(second.statusCode, 200, second.body)

  const detail = (await app.inject({ method: 'GET', url: `/api/signing-sessions/${session.id}`, headers: { cookie: admin } })).json().data
  t.equal(detail.status, 'completed')
  t.ok(detail.events.every((e: any) => e.address === '127.0.0.1'), 'the trail records the address')
  const download = await app.inject({ method: 'GET', url: `/api/signing-sessions/${session.id}/document`, headers: { cookie: staff } })
  t.equal(download.statusCode, 200)
  const { signatures } = await pdfsig(download.rawPayload)
  // The certification and both signers, then the sealing (B-LTA): a document timestamp over the
  // whole file, which pdfsig 22.12 lists but cannot check (openssl does, in test/plugins/signature/ltv).
  t.equal(signatures.length, 4)
  t.ok(signatures.slice(0, 3).every((s) => s.validation === 'Signature is Valid.'))
  t.same(signatures.filter((s) => s.totalDocumentSigned).map((s) => s.fieldName), ['Document timestamp'])
  t.equal((await mupdfChangeHistory(download.rawPayload)).verdict, 0)
  t.ok((await qpdfCheck(download.rawPayload)).clean)
})
