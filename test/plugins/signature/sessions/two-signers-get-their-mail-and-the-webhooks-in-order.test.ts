// Issue 20, items 5 and 6, with real peers: an SMTP server (smtp-server) and a webhook receiver
// (node:http) started here. The admin registers an endpoint, sends a payslip to two signers in
// order (payroll, then the employee); each gets an invitation when it is their turn, both get the
// completion with a link to the signed PDF under PUBLIC_URL, and the receiver gets every event
// once, in order, each signed as Standard Webhooks says.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { startSmtpPeer, startWebhookPeer } from '../../../helpers/delivery-peers.ts'
import { csrfFor } from '../../../helpers/pages.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'

t.setTimeout(240_000)

const PUBLIC_URL = 'https://sign.example.test'

t.test('invitations in turn, completion to both, webhooks in order with valid signatures', async (t) => {
  const smtp = await startSmtpPeer(t)
  const receiver = await startWebhookPeer(t)
  const app = await buildTestApp(t, { env: { SMTP_URL: smtp.url, PUBLIC_URL, WEBHOOKS_ALLOW_PRIVATE: true } })
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)

  const registered = await app.inject({ method: 'POST', url: '/api/webhooks', headers: { cookie: admin }, payload: { url: receiver.url, events: ['session.created', 'session.request.opened', 'session.request.signed', 'session.request.declined', 'session.completed', 'session.cancelled', 'signature.created', 'signature.revoked'], description: 'test receiver' } })
  t.equal(registered.statusCode, 201, registered.body)
  const endpoint = registered.json().data
  t.match(endpoint.secret, /^whsec_[A-Za-z0-9+/]+=*$/, 'the secret is answered once')
  receiver.useSecret(endpoint.secret)
  const listed = await app.inject({ method: 'GET', url: '/api/webhooks', headers: { cookie: admin } })
  t.notOk(JSON.stringify(listed.json()).includes(endpoint.secret), 'and never again')

  const image = `data:image/png;base64,${makeStampPng().toString('base64')}`
  const signatureOf: Record<string, string> = {}
  for (const [who, cookie] of [['admin', admin], ['staff', staff]] as const) {
    const res = await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie }, payload: { label: 'Mine', image, certificate: { mode: 'issue' } } })
    t.equal(res.statusCode, 201, res.body)
    signatureOf[who] = res.json().data.uuid
  }

  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'sequential' } })
  t.equal(created.statusCode, 201, created.body)
  const session = created.json().data
  const requestOf = (slot: string) => session.requests.find((r: any) => r.slot === slot).id as string
  const [invitation] = await smtp.waitFor(1)
  t.same(invitation!.to, [DEMO.admin.email], 'the payroll officer signs first: invited first')
  t.match(invitation!.subject, 'Please sign: ')
  t.match(invitation!.text, `${PUBLIC_URL}/app/signature-templates/payslip/sign/${signatureOf.admin}?request=${requestOf('payroll')}`, 'the link opens the signer page on the request, under PUBLIC_URL')
  t.equal(smtp.messages.length, 1, 'the employee is not invited before it is their turn')

  const finalize = async (cookie: string, who: string, requestId: string) => app.inject({
    method: 'POST', url: '/app/signature-templates/payslip/signer/finalize',
    headers: { cookie, 'x-csrf-token': await csrfFor(app, cookie) }, payload: { signature: signatureOf[who], request: requestId, placements: [] },
  })
  // Opening the signer page from the link is an event too.
  const opened = await app.inject({ method: 'GET', url: invitation!.text.match(/\/app\/signature-templates\/\S+/)![0], headers: { cookie: admin, accept: 'text/html' } })
  t.equal(opened.statusCode, 200, 'the invitation\'s link opens the signer page')
  const first = await finalize(admin, 'admin', requestOf('payroll'))
  t.equal(first.statusCode, 200, first.body)
  const second = (await smtp.waitFor(2))[1]!
  t.same(second.to, [DEMO.staff.email], 'then the employee, once it is their turn')
  t.match(second.text, `${PUBLIC_URL}/app/signature-templates/payslip/sign/${signatureOf.staff}?request=${requestOf('employee')}`)

  const last = await finalize(staff, 'staff', requestOf('employee'))
  t.equal(last.statusCode, 200, last.body)
  const all = await smtp.waitFor(4)
  const completion = all.slice(2)
  t.same(completion.map((m) => m.to[0]).sort(), [DEMO.admin.email, DEMO.staff.email].sort(), 'both are told it is complete')
  for (const mail of completion) {
    t.match(mail.subject, 'Signed by everyone')
    t.match(mail.text, `${PUBLIC_URL}/api/signing-sessions/${session.id}/document`, 'with a link to the signed PDF')
  }
  t.equal(new Set(all.map((m) => m.messageId)).size, 4, 'four distinct messages')

  t.equal((await app.inject({ method: 'DELETE', url: `/api/signatures/${signatureOf.admin}`, headers: { cookie: admin } })).statusCode, 204)
  const deliveries = await receiver.waitFor(8)
  t.same(deliveries.map((d) => d.json.type), ['signature.created', 'signature.created', 'session.created', 'session.request.opened', 'session.request.signed', 'session.request.signed', 'session.completed', 'signature.revoked'], 'every event, in order')
  t.ok(deliveries.every((d) => d.signatureValid), 'each signature verifies with the secret')
  t.ok(deliveries.every((d) => d.json.id === d.headers['webhook-id'] && Object.keys(d.json).join() === 'id,type,created_at,data'), 'body { id, type, created_at, data } with id = webhook-id')
  t.ok(deliveries.every((d) => Math.abs(Number(d.headers['webhook-timestamp']) - Date.now() / 1000) < 300), 'timestamps in seconds, now')
  t.same(deliveries.slice(3, 6).map((d) => [d.json.data.request.slot, d.json.data.request.status]), [['payroll', 'pending'], ['payroll', 'signed'], ['employee', 'signed']])
  t.equal(deliveries[6]!.json.data.session.status, 'completed')
  t.same([deliveries[7]!.json.data.signature.uuid, deliveries[7]!.json.data.signature.status], [signatureOf.admin, 'revoked'])

  // The delivery log the endpoint page shows, and the admin's outbox, once the pass in flight
  // has recorded its answers (runOnce waits for it).
  await app.signature.outbox.dispatcher.runOnce()
  const log = (await app.inject({ method: 'GET', url: `/api/webhooks/${endpoint.id}`, headers: { cookie: admin } })).json().data
  t.same(log.deliveries.map((d: any) => [d.status, d.lastStatusCode]), Array(8).fill(['sent', 204]))
  const page = await app.inject({ method: 'GET', url: '/admin/outbox', headers: { cookie: admin, accept: 'application/json' } })
  t.same(page.json().data.map((m: any) => m.status), ['sent', 'sent', 'sent', 'sent'])
  t.equal(smtp.messages.length, 4, 'no mail twice')
  t.equal(receiver.deliveries.length, 8, 'no delivery twice')
})
