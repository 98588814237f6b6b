import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'

// A browser keeps our pages out of other sites' windows and our resources out of other sites'
// pages (COOP, CORP) on every answer, errors included; in production it is also told to use HTTPS
// only (HSTS), which a development server on plain http must not say.
const EVERY_ANSWER = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
}

t.test('pages, the API, assets and errors isolate their origin; no HSTS outside production', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  for (const url of ['/login', '/dashboard', '/api/users', '/no-such-page', '/api/users/u-nope', '/%']) {
    const response = await app.inject({ method: 'GET', url, headers: { cookie } })
    for (const [name, value] of Object.entries(EVERY_ANSWER)) t.equal(response.headers[name], value, `${url} (${response.statusCode}): ${name}`)
    t.equal(response.headers['strict-transport-security'], undefined, `${url}: no HSTS in development`)
  }
})

t.test('production answers say Strict-Transport-Security, errors included', async (t) => {
  const app = await buildTestApp(t, { env: { NODE_ENV: 'production' } })
  for (const url of ['/login', '/api/users', '/no-such-page', '/%']) {
    const response = await app.inject({ method: 'GET', url })
    t.match(response.headers['strict-transport-security'], /^max-age=\d{8,}; includeSubDomains$/, `${url} (${response.statusCode})`)
  }
})
