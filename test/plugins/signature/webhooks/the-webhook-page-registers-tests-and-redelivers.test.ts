// The admin's webhook pages drive the same service as /api/webhooks: the form registers an
// endpoint and shows its secret once (an error inline with its code), the endpoint page lists
// deliveries; "send test event" and "redeliver" reach a real receiver, the redelivery with the
// original webhook-id and body.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { startWebhookPeer } from '../../../helpers/delivery-peers.ts'
import { csrfFor, getPage, htmxWrite } from '../../../helpers/pages.ts'

t.setTimeout(120_000)

t.test('register from the page, send a test event, redeliver it', async (t) => {
  const receiver = await startWebhookPeer(t)
  const app = await buildTestApp(t, { env: { WEBHOOKS_ALLOW_PRIVATE: true } })
  const admin = await login(app, DEMO.admin.email)
  const token = await csrfFor(app, admin)

  const list = await getPage(app, '/admin/webhooks', admin)
  t.equal(list.statusCode, 200)
  t.match(list.body, 'data-webhook-form')

  const bad = await htmxWrite(app, 'POST', '/admin/webhooks', admin, token, { url: 'ftp://example.com/', events: 'session.completed' })
  t.equal(bad.statusCode, 422)
  t.match(bad.body, 'data-error-code="ERR_WEBHOOK_URL_INVALID"', 'the error inline, with its code')

  const form = new URLSearchParams([['url', receiver.url], ['description', 'from the page'], ['events', 'session.completed'], ['events', 'signature.created']]).toString()
  const created = await app.inject({ method: 'POST', url: '/admin/webhooks', headers: { cookie: admin, 'hx-request': 'true', 'x-csrf-token': token, 'content-type': 'application/x-www-form-urlencoded' }, payload: form })
  t.equal(created.statusCode, 200, created.body)
  const secret = /data-webhook-secret>([^<]+)</.exec(created.body)?.[1]
  t.match(secret, /^whsec_/, 'the secret, shown once')
  receiver.useSecret(secret!)
  const id = /data-webhook-created="([^"]+)"/.exec(created.body)![1]!
  const stored = (await app.inject({ method: 'GET', url: `/api/webhooks/${id}`, headers: { cookie: admin } })).json().data
  t.same(stored.events, ['session.completed', 'signature.created'])

  const sent = await htmxWrite(app, 'POST', `/admin/webhooks/${id}/test`, admin, token)
  t.equal(sent.headers['hx-redirect'], `/admin/webhooks/${id}`)
  const [first] = await receiver.waitFor(1)
  t.equal(first!.json.type, 'webhook.test')
  t.ok(first!.signatureValid)
  await app.signature.outbox.dispatcher.runOnce()

  const detail = await getPage(app, `/admin/webhooks/${id}`, admin)
  t.match(detail.body, /data-delivery="[^"]+" data-status="sent"/, 'the log shows it sent')
  t.match(detail.body, 'data-send-test')
  const delivery = /data-delivery="([^"]+)"/.exec(detail.body)![1]!
  await htmxWrite(app, 'POST', `/admin/webhooks/${id}/deliveries/${delivery}/redeliver`, admin, token)
  const [, again] = await receiver.waitFor(2)
  t.equal(again!.headers['webhook-id'], first!.headers['webhook-id'], 'the same message id')
  t.equal(again!.body, first!.body, 'the same body')
  t.ok(again!.signatureValid, 'signed again, with a fresh timestamp')
  await app.signature.outbox.dispatcher.runOnce()
  const log = (await app.inject({ method: 'GET', url: `/api/webhooks/${id}`, headers: { cookie: admin } })).json().data.deliveries
  t.equal(log.length, 2, 'two deliveries in the log, each with its own attempts')
  t.ok(log.every((d: any) => d.status === 'sent' && d.log.length === 1 && d.log[0].statusCode === 204))

  const unknown = await htmxWrite(app, 'POST', `/admin/webhooks/${id}/deliveries/000000000000-00000000-00000000000000/redeliver`, admin, token)
  t.equal(unknown.statusCode, 404)
  const removed = await htmxWrite(app, 'POST', `/admin/webhooks/${id}/delete`, admin, token)
  t.equal(removed.headers['hx-redirect'], '/admin/webhooks')
  t.equal((await app.inject({ method: 'GET', url: `/api/webhooks/${id}`, headers: { cookie: admin } })).json().code, 'ERR_WEBHOOK_NOT_FOUND')
})
