// The sender's own limits, against real receivers: a 3xx is an answer that counts as a failure
// and is not followed (the redirect's target gets nothing); a receiver that never answers is a
// failure after the timeout; only a 2xx is a success.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { startWebhookPeer } from '../../../helpers/delivery-peers.ts'
import { WebhookSender } from '../../../../plugins/signature/webhooks/webhook-sender.ts'

t.setTimeout(120_000)

t.test('redirects are not followed; silence times out; 500 is a failure', async (t) => {
  const target = await startWebhookPeer(t)
  const redirecting = createServer((request, response) => { request.resume(); response.writeHead(307, { location: target.url }).end() })
  await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', () => resolve()))
  t.teardown(() => new Promise<void>((resolve) => { redirecting.closeAllConnections(); redirecting.close(() => resolve()) }))
  const silent = await startWebhookPeer(t, { answer: () => 'hold' })
  const failing = await startWebhookPeer(t, { answer: () => 500 })

  const app = await buildTestApp(t, { env: { WEBHOOKS_ALLOW_PRIVATE: true } })
  const admin = await login(app, DEMO.admin.email)
  const sender = new WebhookSender({ endpoints: app.signature.outboxWriter.endpoints, secrets: app.signature.secrets, allowPrivate: true, timeoutMs: 300 })
  t.teardown(() => sender.close())
  const rowFor = async (url: string) => {
    const created = await app.inject({ method: 'POST', url: '/api/webhooks', headers: { cookie: admin }, payload: { url, events: ['session.completed'] } })
    t.equal(created.statusCode, 201, created.body)
    const [row] = await app.signature.database.db.transaction().execute((tx) => app.signature.outbox.repository.insert(tx, [{ channel: 'webhook', topic: 'webhook.test', target: created.json().data.id, payload: { type: 'webhook.test', created_at: new Date().toISOString(), data: {} } }], new Date().toISOString()))
    return row!
  }

  const redirected = await sender.send(await rowFor(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/hooks`))
  t.same([redirected.ok, redirected.statusCode], [false, 307], 'a 307 is a failure')
  const started = Date.now()
  const timedOut = await sender.send(await rowFor(silent.url))
  t.equal(timedOut.ok, false)
  t.ok(Date.now() - started < 5_000, `given up after the timeout (${Date.now() - started} ms): ${timedOut.error}`)
  t.equal(silent.deliveries.length, 1, 'the silent receiver did get the request')
  const failed = await sender.send(await rowFor(failing.url))
  t.same([failed.ok, failed.statusCode, failed.error], [false, 500, 'HTTP 500'])
  // The app's own dispatcher may deliver the rows above too, but none goes to the redirect's target.
  await app.signature.outbox.dispatcher.runOnce()
  t.equal(target.deliveries.length, 0, 'the redirect was not followed')
})
