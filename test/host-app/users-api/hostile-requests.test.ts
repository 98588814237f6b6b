import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'

t.test('hostile or malformed writes are refused and write nothing', async (t) => {
  const app = await buildTestApp(t, { env: { BODY_LIMIT: 4096 } })
  const cookie = await login(app, DEMO.admin.email)
  const name = async () => (await app.inject({ url: `/api/users/${DEMO.staff.id}`, headers: { cookie } })).json().data.name

  const big = await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, headers: { cookie }, payload: { name: 'x'.repeat(10_000) } })
  t.equal(big.statusCode, 413)
  t.equal(big.json().code, 'ERR_BODY_TOO_LARGE')

  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
    const res = await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, headers: { cookie, 'content-type': type }, payload: '{"name":"Form post"}' })
    t.equal(res.statusCode, 415, type)
  }
  const crossSite = await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, headers: { cookie, origin: 'https://evil.example' }, payload: { name: 'Evil' } })
  t.equal(crossSite.statusCode, 403)
  t.equal(crossSite.json().code, 'ERR_CROSS_ORIGIN')
  const crossDelete = await app.inject({ method: 'DELETE', url: `/api/users/${DEMO.staff.id}`, headers: { cookie, origin: 'null' } })
  t.equal(crossDelete.statusCode, 403)
  const sameSite = await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, headers: { cookie, origin: 'http://localhost:80', host: 'localhost:80' }, payload: { name: 'Same origin' } })
  t.equal(sameSite.statusCode, 200, 'our own origin passes')

  const broken = await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, headers: { cookie, 'content-type': 'application/json' }, payload: '{"name": "x"' })
  t.equal(broken.statusCode, 400)
  const proto = await app.inject({ method: 'PATCH', url: `/api/users/${DEMO.staff.id}`, headers: { cookie, 'content-type': 'application/json' }, payload: '{"__proto__": {"role": "admin"}, "name": "P"}' })
  t.equal(proto.statusCode, 400, 'prototype keys are refused by the JSON parser')
  t.equal(await name(), 'Same origin', 'only the one legitimate write landed')
  t.equal((await app.inject({ url: '/api/users/u-staff', headers: { cookie } })).json().data.role, 'staff')
})

t.test('unknown routes answer 404 JSON with a code', async (t) => {
  const app = await buildTestApp(t)
  const res = await app.inject({ url: '/api/nothing-here' })
  t.equal(res.statusCode, 404)
  t.equal(res.json().code, 'ERR_NOT_FOUND')
  t.equal(res.headers['x-content-type-options'], 'nosniff')
  t.match(res.headers['content-security-policy'], /default-src 'self'/)
})

t.test('concurrent creates with the same e-mail: exactly one wins', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const results = await Promise.all(Array.from({ length: 10 }, () => app.inject({ method: 'POST', url: '/api/users', headers: { cookie }, payload: { name: 'Twin', email: 'twin@example.com', role: 'staff', password: 'long-enough' } })))
  t.same(results.map((r) => r.statusCode).sort(), [201, ...Array(9).fill(409)])
})
