// Issue 38, the whole path over JSON: an admin uploads a PDF and sends it to an e-mail address
// (signature, date and name fields) and to a user (a signature field). The external signer reads
// the link and the code from the real SMTP server's messages, verifies, reads and signs with a
// typed name; the user signs over the API; everyone's completion mail carries the signed PDF;
// pdfsig says every signature is valid, mupdf that no change breaks the certification, qpdf that
// the file is sound, and pdftotext shows the filled name and date.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { startSmtpPeer } from '../../../helpers/delivery-peers.ts'
import { mupdfChangeHistory, pdfsig, popplerText, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { signerWithSignature } from '../signing/helpers.ts'
import { createDocumentSession, documentSessionBody, EXTERNAL, mailMatching, signInWithCode, tokenIn, uploadDocument } from './document-helpers.ts'

t.setTimeout(240_000)

t.test('an external signer and a user sign an uploaded document; every signature valid', async (t) => {
  const smtp = await startSmtpPeer(t)
  const app = await buildTestApp(t, { env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://sign.example.org' } })
  const admin = await login(app, DEMO.admin.email)
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')

  const uploaded = await uploadDocument(app, admin)
  t.equal(uploaded.statusCode, 201, uploaded.body)
  const document = uploaded.json().data
  t.same(document.pages, [{ page: 1, width: 792, height: 612 }])
  t.equal(document.filename, 'contract.pdf')
  const read = await app.inject({ url: `/api/documents/${document.id}`, headers: { cookie: admin } })
  t.equal(read.json().data.id, document.id)
  const page = await app.inject({ url: `/api/documents/${document.id}/pages/1`, headers: { cookie: admin } })
  t.equal(page.headers['content-type'], 'image/png')

  const created = await createDocumentSession(app, admin, documentSessionBody(document.id, { user: DEMO.staff.id }))
  t.equal(created.statusCode, 201, created.body)
  const session = created.json().data
  t.equal(session.template, '_document')
  t.same(session.requests.map((r: any) => [r.signer.id, r.signer.email]), [[null, EXTERNAL.email], [DEMO.staff.id, DEMO.staff.email]])
  t.same(session.requests[0].fields.map((f: any) => f.type), ['signature', 'date', 'name'])

  const invitation = await mailMatching(smtp, (m) => m.to[0] === EXTERNAL.email && m.subject.startsWith('Please sign'))
  t.match(invitation.text, 'https://sign.example.org/sign/', 'the link is under PUBLIC_URL')
  t.match(invitation.text, 'Please sign the contract.')
  const token = tokenIn(invitation)
  const { cookie, info } = await signInWithCode(app, smtp, token)
  t.same(info.signer, { name: EXTERNAL.name, email: EXTERNAL.email })
  t.equal(info.fields.length, 3)
  const shown = await app.inject({ url: `/api/sign-links/${token}`, headers: { cookie } })
  t.equal(shown.statusCode, 200, shown.body)
  t.equal(shown.json().data.sessionId, session.id)
  const pdf = await app.inject({ url: `/api/sign-links/${token}/document`, headers: { cookie } })
  t.equal(pdf.headers['content-type'], 'application/pdf')
  const image = await app.inject({ url: `/api/sign-links/${token}/pages/1`, headers: { cookie } })
  t.equal(image.headers['content-type'], 'image/png')

  const signed = await app.inject({
    method: 'POST', url: `/api/sign-links/${token}/finalize`, headers: { cookie, 'user-agent': 'TestBrowser/1.0' },
    payload: { signature: { typed: EXTERNAL.name } },
  })
  t.equal(signed.statusCode, 200, signed.body)
  t.same(signed.json().data.session, { id: session.id, status: 'active' })

  // Sequential: the user's turn now.
  await mailMatching(smtp, (m) => m.to[0] === DEMO.staff.email && m.subject.startsWith('Please sign'))
  // The pages made for template sessions still open a document session (the UI builds on them).
  t.equal((await app.inject({ url: `/app/sessions/${session.id}`, headers: { cookie: admin } })).statusCode, 200, 'the session page')
  t.equal((await app.inject({ url: '/app/inbox', headers: { cookie: staff.cookie } })).statusCode, 200, 'the inbox page')
  const inbox = (await app.inject({ url: '/api/signing-sessions?mine=1', headers: { cookie: staff.cookie } })).json().data
  t.same(inbox.map((i: any) => [i.requestId, i.yourTurn, i.slotLabel]), [[session.requests[1].id, true, 'Signer 2']])
  const userSigned = await app.inject({
    method: 'POST', url: `/api/signing-sessions/${session.id}/requests/${session.requests[1].id}/sign`,
    headers: { cookie: staff.cookie }, payload: { signature: staff.signature },
  })
  t.equal(userSigned.statusCode, 200, userSigned.body)
  t.equal(userSigned.json().data.session.status, 'completed')

  const detail = (await app.inject({ url: `/api/signing-sessions/${session.id}`, headers: { cookie: admin } })).json().data
  t.same(detail.requests.map((r: any) => r.identifiedBy), ['email-code', 'account'])
  const externalSigned = detail.events.find((e: any) => e.event === 'signed' && e.requestId === session.requests[0].id)
  t.match(externalSigned, { address: '127.0.0.1', userAgent: 'TestBrowser/1.0', detail: /identified by e-mail code/ })
  t.ok(detail.events.some((e: any) => e.event === 'opened' && /identified by e-mail code/.test(e.detail ?? '')), 'the verify is in the history')

  for (const to of [EXTERNAL.email, DEMO.staff.email, DEMO.admin.email]) {
    const done = await mailMatching(smtp, (m) => m.to[0] === to && m.subject.startsWith('Signed by everyone'))
    t.match(done.raw, /filename="?contract-signed\.pdf/, `${to}: the signed PDF is attached`)
    if (to === EXTERNAL.email) t.match(done.text, `https://sign.example.org/api/sign-links/${token}/signed`, 'the external signer gets their own link')
  }
  const byLink = await app.inject({ url: `/api/sign-links/${token}/signed` })
  t.equal(byLink.statusCode, 200, 'the signed PDF by the token, without the cookie')

  const download = await app.inject({ url: `/api/signing-sessions/${session.id}/document`, headers: { cookie: admin } })
  const { signatures } = await pdfsig(download.rawPayload)
  // Certification, the external signer, the user, then the sealing's document timestamp.
  t.equal(signatures.length, 4)
  t.ok(signatures.slice(0, 3).every((s) => s.validation === 'Signature is Valid.'), JSON.stringify(signatures.map((s) => s.validation)))
  // Filling the date, name and text fields is each signer's own change, allowed by the certification.
  t.equal((await mupdfChangeHistory(download.rawPayload)).verdict, 0, 'mupdf: no change the certification forbids')
  const qpdf = await qpdfCheck(download.rawPayload)
  t.ok(qpdf.clean, qpdf.output)
  const text = await popplerText(download.rawPayload)
  t.match(text, EXTERNAL.name, 'the name field is filled')
  t.match(text, new Date().toISOString().slice(0, 10), 'the date field is filled')
  // The certificate of completion says how each signer was identified, from where and with what.
  const certificate = await app.inject({ url: `/api/signing-sessions/${session.id}/certificate`, headers: { cookie: admin } })
  t.equal(certificate.statusCode, 200)
  const certificateText = (await popplerText(certificate.rawPayload)).replace(/\s+/g, ' ')
  t.match(certificateText, `${EXTERNAL.name} <${EXTERNAL.email}>`)
  t.match(certificateText, 'Identified by a one-time code sent to their e-mail address')
  t.match(certificateText, 'Browser: TestBrowser/1.0')
  t.match(certificateText, 'Identified by signed in to their account')
  t.equal((await app.inject({ method: 'POST', url: `/api/sign-links/${token}/finalize`, headers: { cookie }, payload: { signature: { typed: 'x' } } })).json().code, 'ERR_SIGN_LINK_USED')
})
