// /metrics tells anyone who reads it how busy the instance is and which routes exist: with
// METRICS=on it answers only a request carrying METRICS_TOKEN or coming from METRICS_ALLOW, and an
// instance with neither configured does not boot.
import t from 'tap'
import { buildApp } from '../../../host-app/app.ts'
import { buildTestApp } from '../../helpers/app.ts'
import { isolatedEnv } from '../../helpers/test-env.ts'
import { METRICS_TOKEN } from '../../helpers/prometheus-text.ts'

t.test('the bearer token', async (t) => {
  const app = await buildTestApp(t, { env: { METRICS: 'on', METRICS_TOKEN } })
  const get = (authorization?: string) => app.inject({ url: '/metrics', headers: authorization ? { authorization } : {} })

  const none = await get()
  t.equal(none.statusCode, 401)
  t.equal(none.json().code, 'ERR_UNAUTHENTICATED')
  t.equal(none.headers['www-authenticate'], 'Bearer realm="metrics"')
  t.equal((await get(`Bearer ${METRICS_TOKEN}x`)).statusCode, 401, 'a longer token')
  t.equal((await get(`Bearer ${METRICS_TOKEN.slice(0, -1)}`)).statusCode, 401, 'a shorter token')
  t.equal((await get(`Basic ${METRICS_TOKEN}`)).statusCode, 401, 'another scheme')
  t.notMatch(none.body, /http_requests_total/, 'nothing of the metrics in a refusal')
  const ok = await get(`Bearer ${METRICS_TOKEN}`)
  t.equal(ok.statusCode, 200)
  t.match(ok.body, /# TYPE http_requests_total counter/)
})

t.test('the allow-list, alone or beside the token', async (t) => {
  const app = await buildTestApp(t, { env: { METRICS: 'on', METRICS_ALLOW: ['10.1.0.0/16', '192.0.2.7'] } })
  const from = (remoteAddress: string) => app.inject({ url: '/metrics', remoteAddress })
  t.equal((await from('10.1.200.3')).statusCode, 200, 'inside the range')
  t.equal((await from('192.0.2.7')).statusCode, 200, 'the one address')
  const refused = await from('10.2.0.1')
  t.equal(refused.statusCode, 403, 'outside: refused')
  t.equal(refused.json().code, 'ERR_ACCESS_DENIED')
  t.equal((await app.inject({ url: '/metrics', remoteAddress: '10.2.0.1', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).statusCode, 403, 'no token is configured, so none opens it')

  const both = await buildTestApp(t, { env: { METRICS: 'on', METRICS_TOKEN, METRICS_ALLOW: ['10.1.0.0/16'] } })
  t.equal((await both.inject({ url: '/metrics', remoteAddress: '10.1.0.9' })).statusCode, 200, 'an allowed address needs no token')
  t.equal((await both.inject({ url: '/metrics', remoteAddress: '10.9.0.9' })).statusCode, 401, 'another needs it')
  t.equal((await both.inject({ url: '/metrics', remoteAddress: '10.9.0.9', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).statusCode, 200)
})

t.test('METRICS=on with neither a token nor an allow-list, or a malformed entry, stops the boot', async (t) => {
  const { env, cleanup } = await isolatedEnv()
  t.teardown(cleanup)
  await t.rejects(buildApp({ env: { ...env, METRICS: 'on' } }), /METRICS=on needs METRICS_TOKEN or METRICS_ALLOW/)
  await t.rejects(buildApp({ env: { ...env, METRICS: 'on', METRICS_ALLOW: ['10.0.0.0/33'] } }), /METRICS_ALLOW: "10\.0\.0\.0\/33"/)
  await t.rejects(buildApp({ env: { ...env, METRICS: 'on', METRICS_ALLOW: ['example.com'] } }), /METRICS_ALLOW: "example\.com" is not an IP address/)
})
