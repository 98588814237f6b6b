// The cache of parsed Cookie headers (core/auth/session-cookie-cache.ts) changes what a signed-in
// request costs, never what it sees: the same header reads the same cookies, each request gets a
// container of its own, and the cache holds no more than its bound.
import { randomBytes } from 'node:crypto'
import secureSession from '@fastify/secure-session'
import Fastify from 'fastify'
import t, { type Test } from 'tap'
import { cacheParsedCookieHeaders } from '../../../core/auth/session-cookie-cache.ts'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'

t.test('a signed-in client\'s header is parsed once, and its requests stay signed in', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.staff.email)
  const misses = app.cookieHeaderCache.misses
  for (let i = 0; i < 3; i++) t.equal((await app.inject({ url: '/api/auth/me', headers: { cookie } })).json().user.id, DEMO.staff.id)
  t.equal(app.cookieHeaderCache.misses, misses + 1, 'parsed the first time')
  t.ok(app.cookieHeaderCache.hits >= 2, `then read from the cache (${app.cookieHeaderCache.hits} hits): the plugin's hook calls through the instance`)
  t.equal((await app.inject({ url: '/api/auth/me', headers: { cookie: `${cookie}; theme=dark` } })).json().user.id, DEMO.staff.id)
  t.equal(app.cookieHeaderCache.misses, misses + 2, 'another header is parsed for itself')
  const other = await login(app, DEMO.manager.email)
  t.equal((await app.inject({ url: '/api/auth/me', headers: { cookie: other } })).json().user.id, DEMO.manager.id, 'another client reads its own session')
})

/** A bare app with the real cookie plugin (through secure-session) and the cache. */
async function bareApp(t: Test, maxEntries: number) {
  const app = Fastify()
  await app.register(secureSession, { key: randomBytes(32), cookieName: 's', cookie: { path: '/' } })
  const stats = cacheParsedCookieHeaders(app, { maxEntries })
  app.get('/cookies', async (request) => {
    const seen = { ...request.cookies }
    request.cookies.theme = 'changed by this request'
    return seen
  })
  t.teardown(() => app.close())
  return { app, stats }
}

t.test('each request gets its own container: what one request changes, the next does not see', async (t) => {
  const { app, stats } = await bareApp(t, 10)
  const cookie = 'theme=dark; note=caf%C3%A9%3B%20ok'
  for (let i = 0; i < 3; i++) t.same((await app.inject({ url: '/cookies', headers: { cookie } })).json(), { theme: 'dark', note: 'café; ok' })
  t.same(stats, { hits: 2, misses: 1 })
})

t.test('it is bounded: past its size the least recent header is parsed again', async (t) => {
  const { app, stats } = await bareApp(t, 2)
  for (const n of [1, 2, 3, 1]) await app.inject({ url: '/cookies', headers: { cookie: `n=${n}` } })
  t.same(stats, { hits: 0, misses: 4 }, 'n=1 had been dropped for n=3')
})

t.test('0 entries parses every header', async (t) => {
  const { app, stats } = await bareApp(t, 0)
  for (let i = 0; i < 2; i++) t.same((await app.inject({ url: '/cookies', headers: { cookie: 'a=1' } })).json(), { a: '1' })
  t.same(stats, { hits: 0, misses: 0 })
})
