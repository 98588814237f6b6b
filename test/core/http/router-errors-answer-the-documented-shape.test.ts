import t, { type Test } from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { listenLocally, rawGet, sendRaw, type RawResponse } from './raw-http.ts'

const DOCUMENTED_KEYS = ['code', 'error', 'message', 'statusCode']

function documented(t: Test, response: RawResponse, status: number, code: string, what: string) {
  t.equal(response.status, status, `${what}: status`)
  const body = JSON.parse(response.body)
  t.same(Object.keys(body).sort(), DOCUMENTED_KEYS, `${what}: {statusCode, code, error, message}`)
  t.match(body, { statusCode: status, code }, `${what}: our stable code`)
  t.notMatch(response.body, /FST_/, `${what}: no Fastify code leaks`)
  t.equal(response.headers['x-content-type-options'], 'nosniff', `${what}: nosniff`)
  t.equal(response.headers['x-frame-options'], 'DENY', `${what}: x-frame-options`)
  t.match(response.headers['content-security-policy'], /default-src 'self'/, `${what}: CSP`)
  t.equal(response.headers['cache-control'], 'no-store', `${what}: not cached`)
  t.match(response.headers['content-type'], /^application\/json/, `${what}: JSON`)
}

t.test('errors the router raises before any hook runs', async (t) => {
  const app = await buildTestApp(t)
  const port = await listenLocally(app)
  documented(t, await rawGet(port, '/api/users/%E0%A4%A'), 400, 'ERR_BAD_URL', 'a bad URL encoding')
  documented(t, await rawGet(port, '/admin/users/%E0%A4%A', 'Accept: text/html\r\n'), 400, 'ERR_BAD_URL', 'a bad URL encoding on a page')
  documented(t, await rawGet(port, `/api/users/${'a'.repeat(500)}`), 414, 'ERR_URL_TOO_LONG', 'an over-long parameter')
})

t.test('errors Node raises before Fastify sees a request', async (t) => {
  const app = await buildTestApp(t)
  const port = await listenLocally(app)
  documented(t, await rawGet(port, `/${'a'.repeat(20_000)}`), 431, 'ERR_HEADERS_TOO_LARGE', 'an URL longer than the header limit')
  documented(t, await sendRaw(port, 'GET / HTTP/1.1\r\nHost: app.test\r\nBad Header\r\n\r\n'), 400, 'ERR_BAD_REQUEST', 'a malformed request')
})

t.test('the same answers through inject, which builds the request like a client would', async (t) => {
  const app = await buildTestApp(t)
  const response = await app.inject({ url: '/api/users/%E0%A4%A' })
  t.match(response.json(), { statusCode: 400, code: 'ERR_BAD_URL', error: 'Bad Request' })
  t.equal(response.headers['x-frame-options'], 'DENY')
})
