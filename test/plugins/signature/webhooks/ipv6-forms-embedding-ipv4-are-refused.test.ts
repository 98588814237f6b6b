// Issue 39, item 9: the webhook address check let IPv6 forms that carry an IPv4 address through,
// e.g. http://[::127.0.0.1]/ (IPv4-compatible, ::/96) reaches the loopback. IPv4-mapped addresses
// (::ffff:0:0/96, in any spelling) are checked as their IPv4 address; IPv4-compatible (::/96),
// 6to4 (2002::/16) and Teredo (2001::/32) are refused outright. A public IPv6 address still passes.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { isPrivateAddress } from '../../../../plugins/signature/webhooks/webhook-target.ts'

t.setTimeout(60_000)

const REFUSED = [
  'http://[::127.0.0.1]/', 'http://[::7f00:1]:9/x', 'http://[::10.0.0.1]/', 'http://[::8.8.8.8]/',
  'http://[::ffff:7f00:1]/', 'http://[::ffff:a9fe:a9fe]/latest', 'http://[0:0:0:0:0:ffff:127.0.0.1]/',
  'http://[2002:7f00:1::]/', 'http://[2002:808:808::1]/', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
]

t.test('registration refuses IPv6 forms embedding IPv4 with the private-target code, nothing written', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const post = (url: string) => app.inject({ method: 'POST', url: '/api/webhooks', headers: { cookie: admin }, payload: { url, events: ['session.completed'] } })
  for (const url of REFUSED) {
    const response = await post(url)
    t.equal(response.statusCode, 400, `${url}: ${response.body}`)
    t.equal(response.json().code, 'ERR_WEBHOOK_TARGET_PRIVATE', url)
  }
  t.equal((await app.signature.database.db.selectFrom('webhook_endpoints').select('id').execute()).length, 0, 'nothing written')
  const publicV6 = await post('http://[2606:4700::1111]/hook')
  t.equal(publicV6.statusCode, 201, `a public IPv6 address is a target: ${publicV6.body}`)
})

t.test('the check made on every connection agrees', async (t) => {
  for (const address of ['::127.0.0.1', '::ffff:7f00:1', '2002:7f00:1::', '2001:0:4136:e378:8000:63bf:3fff:fdd2']) t.ok(isPrivateAddress(address), address)
  for (const address of ['::ffff:8.8.8.8', '2606:4700::1111', '2001:4860:4860::8888']) t.notOk(isPrivateAddress(address), address)
})
