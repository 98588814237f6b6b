// Documents the app signs, verified through its own API: POST /api/verify (raw PDF and base64
// JSON, no sign-in), the report of a stored signature and of a completed session, the links to
// them, and the same 4xx answers as /api/sign for files that are not PDFs or are encrypted.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { csrfFor, getPage } from '../../../helpers/pages.ts'
import { mupdfChangeHistory, pdfsig, qpdfEncrypt } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { signerWithSignature, STAMP_DATA_URL } from '../signing/helpers.ts'

t.setTimeout(240_000)

t.test('a signature made by /api/sign verifies, raw or as JSON, without signing in', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const box = { page: 1, x: 300, y: 200, width: 200, height: 80 }
  const signed = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf: Buffer.from(await makePdf()).toString('base64'), placements: [box] } })
  t.equal(signed.statusCode, 200, signed.body.slice(0, 200))
  const pdf = signed.rawPayload

  const raw = await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: pdf })
  t.equal(raw.statusCode, 200, raw.body.slice(0, 300))
  t.equal(raw.headers['cache-control'], 'no-store')
  const report = raw.json()
  t.equal(report.verdict, 'valid', report.summary)
  // /api/sign certifies what it signs (DocMDP P=2).
  // The upload is revision 1; the signature, then the B-LTA sealing, follow as updates.
  t.match(report.document, { pages: 1, revisions: 4, certification: { p: 2, field: 'Signature' }, sha256: /^[0-9a-f]{64}$/, level: 'B-LTA' })
  t.equal(report.signatures.length, 2)
  const [signature, timestamp] = report.signatures
  t.match(timestamp, { kind: 'document-timestamp', integrity: 'valid', trust: 'trusted', coversWholeDocument: true })
  t.match(signature, { kind: 'certification', integrity: 'valid', revision: 2, trust: 'trusted' })
  if (signature.level === 'B-LT' || signature.level === 'B-LTA') {
    // Once the app appends its DSS and document timestamp (issue 18), they are the allowed changes after it.
    t.match(signature, { revocation: 'good', revocationSource: 'dss', modificationsAfter: 'allowed' })
  } else {
    t.match(signature, { coversWholeDocument: true, modificationsAfter: 'none', changes: [], revocationSource: signature.revocation === 'unknown' ? null : /^(dss|application-ca)$/ })
  }
  t.match(signature.signer, { subject: /CN=Sam Staff/, issuer: /Signature Application CA/, serial: /^[0-9A-F]+$/ })
  // The app signs adbe.pkcs7.detached today (not PAdES); once it signs ETSI.CAdES.detached the level says so.
  t.equal(signature.level, signature.subFilter === 'adbe.pkcs7.detached' ? null : signature.level)
  if (signature.subFilter === 'ETSI.CAdES.detached') t.match(signature.level, /^B-(B|T|LT|LTA)$/)
  const [checked] = (await pdfsig(pdf)).signatures
  t.equal(checked!.valid, signature.integrity === 'valid', 'pdfsig agrees on integrity')
  t.equal(checked!.totalDocumentSigned, signature.coversWholeDocument, 'pdfsig agrees on coverage')
  t.equal((await mupdfChangeHistory(pdf)).verdict === 0, signature.modificationsAfter !== 'forbidden', 'mupdf agrees on what followed')

  const json = await app.inject({ method: 'POST', url: '/api/verify', payload: { pdf: pdf.toString('base64') } })
  t.equal(json.statusCode, 200)
  // Each report names the moment it was made (validation.validationTime); nothing else differs.
  const timeless = (r: { signatures: Array<{ validation: { validationTime?: string } }> }) => ({ ...r, signatures: r.signatures.map((s) => ({ ...s, validation: { ...s.validation, validationTime: undefined } })) })
  t.same(timeless(json.json()), timeless(report), 'the JSON body gives the same report')

  const stored = await app.inject({ url: `/api/signatures/${signed.headers['x-signature-uuid']}/verification`, headers: { cookie: staff.cookie } })
  t.equal(stored.statusCode, 200)
  t.equal(stored.json().document.sha256, report.document.sha256, 'the stored document is the one handed out')
  const manager = await login(app, DEMO.manager.email)
  t.equal((await app.inject({ url: `/api/signatures/${signed.headers['x-signature-uuid']}/verification`, headers: { cookie: manager } })).statusCode, 404, 'someone who may not see it gets 404')
  t.equal((await app.inject({ url: `/api/signatures/${signed.headers['x-signature-uuid']}/verification` })).statusCode, 401)

  const mySignatures = await getPage(app, '/app/my-signatures', staff.cookie)
  t.match(mySignatures.body, /verifyUrl&quot;:&quot;\/app\/verify\?signature=00000000-0000-0000-0000-000000000000/, 'My signatures links each download to its report')
  const page = await getPage(app, `/app/verify?signature=${signed.headers['x-signature-uuid']}`, staff.cookie)
  t.equal(page.statusCode, 200)
  t.match(page.body, `/api/signatures/${signed.headers['x-signature-uuid']}/verification`)
  t.equal((await getPage(app, '/app/verify?signature=%3Cscript%3E', staff.cookie)).statusCode, 400, 'a bad query is refused')

  const unsigned = (await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: Buffer.from(await makePdf()) })).json()
  t.same(unsigned.signatures, [])
  t.equal(unsigned.verdict, 'warning')
})

t.test('files that are not PDFs, encrypted or too large get the 4xx of /api/sign; public page needs no sign-in', async (t) => {
  const app = await buildTestApp(t)
  const post = (payload: Buffer | object, type = 'application/pdf') =>
    app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': type }, payload: Buffer.isBuffer(payload) ? payload : JSON.stringify(payload) })
  const cases: Array<[string, Buffer | object, string, number, string]> = [
    ['not a PDF', Buffer.from('hello, not a pdf'), 'application/pdf', 422, 'ERR_PDF_INVALID'],
    ['a truncated PDF', Buffer.from('%PDF-1.7\n1 0 obj <<'), 'application/pdf', 422, 'ERR_PDF_INVALID'],
    ['an encrypted PDF', await qpdfEncrypt(await makePdf(), 'secret'), 'application/pdf', 422, 'ERR_PDF_ENCRYPTED'],
    ['JSON without pdf', { file: 'x' }, 'application/json', 400, 'ERR_VALIDATION'],
    ['a form post', Buffer.from('pdf=x'), 'application/x-www-form-urlencoded', 415, 'ERR_UNSUPPORTED_MEDIA_TYPE'],
    ['text/plain (what a cross-site form can send)', Buffer.from('%PDF-1.7'), 'text/plain', 415, 'ERR_UNSUPPORTED_MEDIA_TYPE'],
    ['over 25 MiB', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(25 * 1024 * 1024)]), 'application/pdf', 413, 'ERR_BODY_TOO_LARGE'],
  ]
  for (const [name, payload, type, status, code] of cases) {
    const res = await post(payload, type)
    t.equal(res.statusCode, status, `${name}: ${res.body.slice(0, 200)}`)
    t.equal(res.json().code, code, name)
  }
  const empty = await app.inject({ method: 'POST', url: '/api/verify' })
  t.equal(empty.statusCode, 400, 'no body')
  t.equal(empty.json().code, 'ERR_VERIFY_NO_PDF')

  const page = await app.inject({ url: '/verify' })
  t.equal(page.statusCode, 200, 'public page, no sign-in')
  t.match(page.body, 'data-drop')
  t.match(page.body, '<script src="/verify/verify.js" defer>')
  const script = await app.inject({ url: '/verify/verify.js' })
  t.equal(script.statusCode, 200)
  t.notMatch(script.body, /innerHTML/, 'the report is written with textContent only')
})

t.test('a completed session: every signature valid, the report linked from the session page, mupdf and pdfsig agree', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const people = { staff: await login(app, DEMO.staff.email), manager: await login(app, DEMO.manager.email) }
  const signatureOf: Record<string, string> = {}
  for (const [who, cookie] of Object.entries(people)) {
    const res = await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie }, payload: { label: 'Mine', image: STAMP_DATA_URL, certificate: { mode: 'issue' } } })
    signatureOf[who] = res.json().data.uuid
  }
  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'sequential' } })
  t.equal(created.statusCode, 201, created.body)
  const session = created.json().data
  for (const [i, who] of (['staff', 'manager'] as const).entries()) {
    const cookie = people[who]
    const res = await app.inject({
      method: 'POST', url: '/app/signature-templates/daily-time-record/signer/finalize',
      headers: { cookie, 'x-csrf-token': await csrfFor(app, cookie) }, payload: { signature: signatureOf[who], request: session.requests[i].id, placements: [] },
    })
    t.equal(res.statusCode, 200, res.body)
  }
  const res = await app.inject({ url: `/api/signing-sessions/${session.id}/verification`, headers: { cookie: admin } })
  t.equal(res.statusCode, 200, res.body.slice(0, 300))
  const report = res.json()
  t.equal(report.verdict, 'valid', report.summary)
  t.same(report.document.certification, { p: 2, field: 'Certification' })
  t.same(report.signatures.map((s: any) => [s.field, s.kind, s.integrity, s.trust, s.modificationsAfter]), [
    ['Certification', 'certification', 'valid', 'trusted', 'allowed'],
    ['employee', 'approval', 'valid', 'trusted', 'allowed'],
    ['supervisor', 'approval', 'valid', 'trusted', 'allowed'],
    ['Document timestamp', 'document-timestamp', 'valid', 'trusted', 'none'],
  ])
  t.equal(report.document.level, 'B-LTA')
  t.ok(report.signatures.flatMap((s: any) => s.changes).every((c: any) => c.allowed))
  const pdf = (await app.inject({ url: `/api/signing-sessions/${session.id}/document`, headers: { cookie: admin } })).rawPayload
  t.equal((await mupdfChangeHistory(pdf)).verdict, 0, 'mupdf agrees: nothing forbidden')
  // pdfsig 22.12 cannot check the ETSI.RFC3161 document timestamp it lists last.
  t.same((await pdfsig(pdf)).signatures.map((s) => s.valid), [true, true, true, false], 'pdfsig agrees: every signature intact')

  const page = await getPage(app, `/app/sessions/${session.id}`, admin)
  t.match(page.body, `href="/app/verify?session=${session.id}" data-verify-link`, 'the completed session links to its report')
  t.equal((await app.inject({ url: `/api/signing-sessions/${session.id}/verification` })).statusCode, 401)
})
