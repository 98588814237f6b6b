// POST /api/webhooks: every bad input is a 400 (or 401/403) with a stable code and writes nothing;
// a URL resolving to loopback or a private range is refused unless WEBHOOKS_ALLOW_PRIVATE=true,
// and checked again when sending, against the address the connection really uses.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { startWebhookPeer } from '../../../helpers/delivery-peers.ts'
import { WebhookSender } from '../../../../plugins/signature/webhooks/webhook-sender.ts'

t.setTimeout(120_000)

const EVENTS = ['session.completed']

t.test('bad input and private targets are refused with stable codes, nothing written', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  const post = (payload: unknown, cookie: string | undefined) => app.inject({ method: 'POST', url: '/api/webhooks', headers: cookie ? { cookie } : {}, payload: payload as object })
  const cases: Array<[string, unknown, number, string, string | undefined]> = [
    ['loopback by address', { url: 'http://127.0.0.1:9/x', events: EVENTS }, 400, 'ERR_WEBHOOK_TARGET_PRIVATE', admin],
    ['loopback by name', { url: 'http://localhost:9/x', events: EVENTS }, 400, 'ERR_WEBHOOK_TARGET_PRIVATE', admin],
    ['private range', { url: 'https://10.1.2.3/x', events: EVENTS }, 400, 'ERR_WEBHOOK_TARGET_PRIVATE', admin],
    ['link-local (cloud metadata)', { url: 'http://169.254.169.254/latest', events: EVENTS }, 400, 'ERR_WEBHOOK_TARGET_PRIVATE', admin],
    ['IPv6 loopback', { url: 'http://[::1]:9/x', events: EVENTS }, 400, 'ERR_WEBHOOK_TARGET_PRIVATE', admin],
    ['IPv4-mapped IPv6 loopback', { url: 'http://[::ffff:127.0.0.1]:9/x', events: EVENTS }, 400, 'ERR_WEBHOOK_TARGET_PRIVATE', admin],
    ['not http', { url: 'ftp://example.com/x', events: EVENTS }, 400, 'ERR_WEBHOOK_URL_INVALID', admin],
    ['credentials in the URL', { url: 'https://user:pw@example.com/x', events: EVENTS }, 400, 'ERR_WEBHOOK_URL_INVALID', admin],
    ['not a URL', { url: 'not a url', events: EVENTS }, 400, 'ERR_WEBHOOK_URL_INVALID', admin],
    ['a host that does not resolve', { url: 'https://no-such-host.invalid/x', events: EVENTS }, 400, 'ERR_WEBHOOK_TARGET_UNRESOLVABLE', admin],
    ['unknown event', { url: 'https://example.com/x', events: ['session.exploded'] }, 400, 'ERR_VALIDATION', admin],
    ['no events', { url: 'https://example.com/x', events: [] }, 400, 'ERR_VALIDATION', admin],
    ['unknown field', { url: 'https://example.com/x', events: EVENTS, secret: 'mine' }, 400, 'ERR_VALIDATION', admin],
    ['staff', { url: 'https://example.com/x', events: EVENTS }, 403, 'ERR_ACCESS_DENIED', staff],
    ['signed out', { url: 'https://example.com/x', events: EVENTS }, 401, 'ERR_UNAUTHENTICATED', undefined],
  ]
  for (const [name, payload, status, code, cookie] of cases) {
    const response = await post(payload, cookie)
    t.equal(response.statusCode, status, `${name}: ${response.body}`)
    t.equal(response.json().code, code, name)
  }
  const rows = await app.signature.database.db.selectFrom('webhook_endpoints').select('id').execute()
  t.equal(rows.length, 0, 'nothing was written')
  for (const url of ['/api/webhooks', '/api/webhooks/00000000-0000-4000-8000-000000000000']) {
    const response = await app.inject({ method: 'GET', url, headers: { cookie: staff } })
    t.equal(response.json().code, 'ERR_ACCESS_DENIED', `GET ${url} is for webhooks:manage only`)
  }
  const unknown = await app.inject({ method: 'POST', url: '/api/webhooks/00000000-0000-4000-8000-000000000000/test', headers: { cookie: admin } })
  t.same([unknown.statusCode, unknown.json().code], [404, 'ERR_WEBHOOK_NOT_FOUND'])
})

t.test('WEBHOOKS_ALLOW_PRIVATE=true lets a loopback receiver be registered', async (t) => {
  const app = await buildTestApp(t, { env: { WEBHOOKS_ALLOW_PRIVATE: true } })
  const admin = await login(app, DEMO.admin.email)
  const response = await app.inject({ method: 'POST', url: '/api/webhooks', headers: { cookie: admin }, payload: { url: 'http://127.0.0.1:9/x', events: EVENTS } })
  t.equal(response.statusCode, 201, response.body)
})

t.test('at send time the resolved address is checked again: a loopback target gets nothing', async (t) => {
  // Registered while private targets were allowed (or while the name resolved elsewhere); the
  // sender of an instance that refuses them must not post, whether by address or by name.
  const receiver = await startWebhookPeer(t)
  const app = await buildTestApp(t, { env: { WEBHOOKS_ALLOW_PRIVATE: true } })
  const admin = await login(app, DEMO.admin.email)
  const refusing = new WebhookSender({ endpoints: app.signature.outboxWriter.endpoints, secrets: app.signature.secrets, allowPrivate: false })
  t.teardown(() => refusing.close())
  for (const url of [receiver.url, receiver.url.replace('127.0.0.1', 'localhost')]) {
    const created = await app.inject({ method: 'POST', url: '/api/webhooks', headers: { cookie: admin }, payload: { url, events: EVENTS } })
    t.equal(created.statusCode, 201, created.body)
    const endpoint = created.json().data
    const row = await app.signature.database.db.transaction().execute((tx) => app.signature.outbox.repository.insert(tx, [{ channel: 'webhook', topic: 'webhook.test', target: endpoint.id, payload: { type: 'webhook.test', created_at: new Date().toISOString(), data: {} } }], new Date().toISOString()))
    const result = await refusing.send(row[0]!)
    t.equal(result.ok, false, `${url}: refused`)
    t.match(result.error, /loopback or private|refused/, result.error ?? '')
  }
  // The allowing sender does reach it, so the refusal above was the check and not a dead receiver.
  const allowing = new WebhookSender({ endpoints: app.signature.outboxWriter.endpoints, secrets: app.signature.secrets, allowPrivate: true })
  t.teardown(() => allowing.close())
  const endpoints = await app.signature.outboxWriter.endpoints.listActive()
  const [row] = await app.signature.database.db.transaction().execute((tx) => app.signature.outbox.repository.insert(tx, [{ channel: 'webhook', topic: 'webhook.test', target: endpoints[1]!.id, payload: { type: 'webhook.test', created_at: new Date().toISOString(), data: {} } }], new Date().toISOString()))
  t.same(await allowing.send(row!), { ok: true, statusCode: 204, error: null, summary: `POST ${endpoints[1]!.url}` })
  // The dispatcher of this app may have delivered the test rows too (it allows private targets); the refusing sender delivered none.
  t.ok(receiver.deliveries.length >= 1)
})
