// Issue 38 follow-ups, over HTTP with a real SMTP server and a real webhook receiver:
// - an external signer (sign link, code, cookie) declines with a reason, as an account signer
//   can: the session ends declined, the history says who (their request), why, from which address
//   and browser; the creator and the other signer are told, the decliner is not; the link is spent;
// - webhook payloads name an external signer (name, e-mail, how identified) where `signer`, the
//   user id, is null.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { startSmtpPeer, startWebhookPeer } from '../../../helpers/delivery-peers.ts'
import { createDocumentSession, EXTERNAL, mailMatching, signInWithCode, tokenIn, uploadDocument } from './document-helpers.ts'

t.setTimeout(180_000)

t.test('an external signer declines with a reason; webhooks name them', async (t) => {
  const smtp = await startSmtpPeer(t)
  const receiver = await startWebhookPeer(t)
  const app = await buildTestApp(t, { env: { SMTP_URL: smtp.url, WEBHOOKS_ALLOW_PRIVATE: true } })
  const admin = await login(app, DEMO.admin.email)
  const registered = await app.inject({ method: 'POST', url: '/api/webhooks', headers: { cookie: admin }, payload: { url: receiver.url, events: ['session.created', 'session.request.opened', 'session.request.declined'], description: 'test' } })
  t.equal(registered.statusCode, 201, registered.body)
  receiver.useSecret(registered.json().data.secret)

  const document = (await uploadDocument(app, admin)).json().data
  const created = await createDocumentSession(app, admin, {
    document: document.id, mode: 'parallel', signers: [EXTERNAL, { user: DEMO.staff.id }],
    fields: [{ signer: 0, type: 'signature', page: 1, x: 40, y: 40, width: 200, height: 60 }, { signer: 1, type: 'signature', page: 1, x: 300, y: 40, width: 200, height: 60 }],
  })
  t.equal(created.statusCode, 201, created.body)
  const session = created.json().data
  const externalRequest = session.requests[0].id
  const token = tokenIn(await mailMatching(smtp, (m) => m.to[0] === EXTERNAL.email && m.subject.startsWith('Please sign')))

  // Without this link's cookie, or without a reason: refused, nothing changes.
  const noCookie = await app.inject({ method: 'POST', url: `/api/sign-links/${token}/decline`, payload: { reason: 'No.' } })
  t.equal(noCookie.statusCode, 401, noCookie.body)
  t.equal(noCookie.json().code, 'ERR_SIGN_LINK_UNVERIFIED')
  const { cookie } = await signInWithCode(app, smtp, token)
  const noReason = await app.inject({ method: 'POST', url: `/api/sign-links/${token}/decline`, headers: { cookie }, payload: { reason: '  ' } })
  t.equal(noReason.statusCode, 400, noReason.body)
  t.match(noReason.json(), { code: 'ERR_VALIDATION', message: /body\.reason/ })
  const badToken = await app.inject({ method: 'POST', url: `/api/sign-links/${'x'.repeat(43)}/decline`, headers: { cookie }, payload: { reason: 'No.' } })
  t.equal(badToken.statusCode, 404)
  t.equal((await app.signature.database.db.selectFrom('signing_sessions').select('status').executeTakeFirstOrThrow()).status, 'active')

  const declined = await app.inject({
    method: 'POST', url: `/api/sign-links/${token}/decline`, headers: { cookie, 'user-agent': 'TestBrowser/2.0' },
    payload: { reason: 'The salary is wrong.' },
  })
  t.equal(declined.statusCode, 200, declined.body)
  t.match(declined.json().data, { status: 'declined', session: { id: session.id, status: 'declined' }, request: { id: externalRequest, status: 'declined' } })
  t.match(String(declined.headers['set-cookie']), /sign_link=;/, 'the link\'s cookie is cleared')

  // The history: the decline, by that request, with its reason, address and browser.
  const detail = (await app.inject({ url: `/api/signing-sessions/${session.id}`, headers: { cookie: admin } })).json().data
  t.equal(detail.status, 'declined')
  const request = detail.requests.find((r: any) => r.id === externalRequest)
  t.equal(request.status, 'declined')
  const event = detail.events.find((e: any) => e.event === 'declined')
  t.match(event, { requestId: externalRequest, actor: null, detail: 'The salary is wrong.', address: '127.0.0.1', userAgent: 'TestBrowser/2.0' })

  // The session page's history names them (they have no account).
  const page = await app.inject({ url: `/app/sessions/${session.id}`, headers: { cookie: admin } })
  t.equal(page.statusCode, 200)
  const line = /<li class="timeline-item" data-event="declined"[^]*?<\/li>/.exec(page.body)?.[0] ?? ''
  t.match(line, `<strong>${EXTERNAL.name}</strong>`, 'the history names the external signer who declined')
  t.match(line, 'declined to sign')
  t.match(line, 'The salary is wrong.')

  // The link is spent; a second decline is refused.
  const again = await app.inject({ method: 'POST', url: `/api/sign-links/${token}/decline`, headers: { cookie }, payload: { reason: 'Still no.' } })
  t.equal(again.statusCode, 410, again.body)
  t.equal(again.json().code, 'ERR_SIGN_LINK_USED')

  // Told: the creator and the other signer, with the reason; not the one who declined.
  const toCreator = await mailMatching(smtp, (m) => m.to[0] === DEMO.admin.email && /declined/i.test(m.subject))
  t.match(toCreator.text, 'Reason: The salary is wrong.')
  t.match(toCreator.text, `${EXTERNAL.name} declined to sign`, 'named, though without an account')
  await mailMatching(smtp, (m) => m.to[0] === DEMO.staff.email && /declined/i.test(m.subject))
  t.notOk(smtp.messages.some((m) => m.to[0] === EXTERNAL.email && /declined/i.test(m.subject)), 'the decliner gets no mail about it')

  // Webhooks: the external signer by name, address and how identified; the account signer by id.
  const deliveries = await receiver.waitFor(3)
  const byType = (type: string) => deliveries.find((d) => d.json.type === type)!.json.data
  t.ok(deliveries.every((d) => d.signatureValid))
  t.same(byType('session.request.opened').request, {
    id: externalRequest, slot: 'signer-1', signer: null, signer_name: EXTERNAL.name, signer_email: EXTERNAL.email, identified_by: 'email-code', status: 'pending', decline_reason: null,
  })
  t.match(byType('session.request.declined'), {
    request: { id: externalRequest, signer: null, signer_name: EXTERNAL.name, signer_email: EXTERNAL.email, identified_by: 'email-code', status: 'declined', decline_reason: 'The salary is wrong.' },
    actor: null,
  })
})
