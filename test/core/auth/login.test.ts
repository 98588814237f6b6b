import t from 'tap'
import { buildTestApp, DEMO } from '../../helpers/app.ts'

t.test('a demo user signs in: 200, public user, session cookie with safe flags', async (t) => {
  const app = await buildTestApp(t)
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ADMIN@example.com', password: 'password' } })
  t.equal(res.statusCode, 200)
  t.same(res.json(), { user: { id: DEMO.admin.id, name: 'Ada Admin', email: 'admin@example.com', role: 'admin' } })
  t.notMatch(res.body, /passwordHash|scrypt/, 'no password material in the answer')
  const cookie = res.cookies[0]!
  t.equal(cookie.name, 'sid')
  t.equal(cookie.httpOnly, true)
  t.equal(cookie.sameSite, 'Lax')
  t.equal(cookie.path, '/')
  t.ok(cookie.maxAge && cookie.maxAge > 0 && cookie.maxAge <= 24 * 3600, 'a bounded lifetime')
})

t.test('wrong password and unknown e-mail get the same 401 answer', async (t) => {
  const app = await buildTestApp(t)
  const wrong = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'admin@example.com', password: 'nope' } })
  const unknown = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ghost@example.com', password: 'nope' } })
  t.equal(wrong.statusCode, 401)
  t.equal(unknown.statusCode, 401)
  t.same(wrong.json(), unknown.json())
  t.equal(wrong.json().code, 'ERR_INVALID_CREDENTIALS')
  t.equal(wrong.cookies.length, 0, 'no session on failure')
})

t.test('an unknown e-mail costs about as much time as a wrong password (dummy hash)', async (t) => {
  const app = await buildTestApp(t)
  const time = async (email: string) => {
    const start = process.hrtime.bigint()
    await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'wrong-password' }, remoteAddress: `10.0.0.${Math.floor(Math.random() * 200)}` })
    return Number(process.hrtime.bigint() - start) / 1e6
  }
  await time('ghost@example.com') // warm the dummy hash
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  const known: number[] = []
  const unknown: number[] = []
  for (let i = 0; i < 4; i++) {
    known.push(await time('manager@example.com'))
    unknown.push(await time(`ghost${i}@example.com`))
  }
  const ratio = median(unknown) / median(known)
  // Without the dummy hash the ratio is ~0.001; the wide band only absorbs a loaded machine.
  t.ok(ratio > 0.25 && ratio < 4, `unknown/known median time ratio ${ratio.toFixed(2)} (scrypt runs either way)`)
})

t.test('malformed bodies: 400 ERR_VALIDATION, and a non-JSON body 415', async (t) => {
  const app = await buildTestApp(t)
  for (const payload of [{}, { email: 'a@b.c' }, { email: 1, password: 'x' }, { email: 'a@b.c', password: 'x', extra: true }]) {
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload })
    t.equal(res.statusCode, 400, JSON.stringify(payload))
    t.equal(res.json().code, 'ERR_VALIDATION')
  }
  const broken = await app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email":' })
  t.equal(broken.statusCode, 400)
  t.equal(broken.json().code, 'ERR_VALIDATION')
  const form = await app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=admin%40example.com&password=password' })
  t.equal(form.statusCode, 415)
  t.equal(form.json().code, 'ERR_UNSUPPORTED_MEDIA_TYPE')
})
