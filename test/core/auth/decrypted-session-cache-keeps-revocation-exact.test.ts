// The cache of decrypted session cookies (core/auth/session-cookie-cache.ts) changes the cost of a
// signed-in request, never its answer: a revoked cookie is refused even when it is in the cache,
// an expired one is no session, each request gets its own session object, and it never holds more
// than its bound.
import { randomBytes } from 'node:crypto'
import secureSession from '@fastify/secure-session'
import Fastify from 'fastify'
import t, { type Test } from 'tap'
import { cacheDecodedSessions } from '../../../core/auth/session-cookie-cache.ts'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'

declare module '@fastify/secure-session' {
  interface SessionData { n: number; x: string }
}

t.test('a cookie served from the cache is refused once its session is revoked', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const laptop = await login(app, DEMO.staff.email)
  const phone = await login(app, DEMO.staff.email)
  for (const cookie of [laptop, laptop, phone, phone]) t.equal((await app.inject({ url: '/api/auth/me', headers: { cookie } })).statusCode, 200)
  t.ok(app.sessionCookieCache.hits >= 2, `served from the cache (${app.sessionCookieCache.hits} hits)`)

  t.equal((await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: laptop } })).statusCode, 204)
  const hits = app.sessionCookieCache.hits
  t.equal((await app.inject({ url: '/api/auth/me', headers: { cookie: phone } })).statusCode, 401, 'another copy, cached, is refused after sign-out')
  t.ok(app.sessionCookieCache.hits > hits, 'and it was a cache hit')

  const manager = await login(app, DEMO.manager.email)
  t.equal((await app.inject({ url: '/api/users', headers: { cookie: manager } })).statusCode, 200)
  t.equal((await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.manager.id}`, headers: { cookie: admin }, payload: { role: 'staff' } })).statusCode, 200)
  t.equal((await app.inject({ url: '/api/users', headers: { cookie: manager } })).statusCode, 401, 'a role change revokes the cached cookie too')
})

/** A bare app with the real plugin and the cache, with a short expiry and a small bound. */
async function bareApp(t: Test, maxEntries: number, expirySeconds: number) {
  const app = Fastify()
  await app.register(secureSession, { key: randomBytes(32), cookieName: 's', expiry: expirySeconds, cookie: { path: '/' } })
  const stats = cacheDecodedSessions(app, { maxEntries, expirySeconds })
  app.get('/new/:n', async (request) => { request.session.set('n', Number((request.params as { n: string }).n)); return 'ok' })
  app.get('/read', async (request) => ({ n: request.session.get('n') ?? null, x: request.session.get('x') ?? null }))
  app.get('/mutate', async (request) => { request.session.set('x', 'changed'); return 'ok' })
  t.teardown(() => app.close())
  const cookieFor = async (n: number) => {
    const response = await app.inject({ url: `/new/${n}` })
    // The raw pair, still URL-encoded: the decoded value contains ';'.
    const header = response.headers['set-cookie']
    return (Array.isArray(header) ? header[0]! : header!).split(';')[0]!
  }
  return { app, stats, cookieFor }
}

t.test('the cache holds at most its bound, and every cookie still reads right', async (t) => {
  const { app, stats, cookieFor } = await bareApp(t, 3, 3600)
  const cookies = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(cookieFor))
  for (let round = 0; round < 2; round++) {
    for (const [i, cookie] of cookies.entries()) {
      t.same((await app.inject({ url: '/read', headers: { cookie } })).json(), { n: i + 1, x: null })
      t.ok(stats.size <= 3, `size ${stats.size} <= 3`)
    }
  }
  t.equal(stats.size, 3)
})

t.test('a hit gives the request its own session: a change made by one request does not reach the next', async (t) => {
  const { app, stats, cookieFor } = await bareApp(t, 10, 3600)
  const cookie = await cookieFor(1)
  await app.inject({ url: '/read', headers: { cookie } })
  // The client ignores the Set-Cookie of /mutate and keeps sending the old value.
  await app.inject({ url: '/mutate', headers: { cookie } })
  t.same((await app.inject({ url: '/read', headers: { cookie } })).json(), { n: 1, x: null })
  t.ok(stats.hits >= 2)
})

t.test('an expired cookie is no session even when it is in the cache', async (t) => {
  const { app, stats, cookieFor } = await bareApp(t, 10, 1)
  const cookie = await cookieFor(7)
  t.same((await app.inject({ url: '/read', headers: { cookie } })).json(), { n: 7, x: null })
  await new Promise((resolve) => setTimeout(resolve, 2100))
  const hits = stats.hits
  t.same((await app.inject({ url: '/read', headers: { cookie } })).json(), { n: null, x: null }, 'expired')
  t.equal(stats.hits, hits + 1, 'answered from the cache entry, which was then dropped')
  t.equal(stats.size, 0)
})
