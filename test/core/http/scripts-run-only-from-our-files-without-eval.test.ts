import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'

// Issue 40 item 9: the CSP lets scripts come only from our own files, with no eval ('unsafe-eval')
// and no inline script ('unsafe-inline'); Alpine is its CSP build, which needs neither.
function directives(header: unknown): Map<string, string[]> {
  const map = new Map<string, string[]>()
  for (const part of String(header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/)
    if (name) map.set(name.toLowerCase(), values)
  }
  return map
}

t.test("pages, the API and errors say script-src 'self' and nothing more", async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  for (const url of ['/login', '/dashboard', '/admin', '/admin/users', '/admin/signature-templates/payslip/design', '/app', '/app/sessions', '/verify', '/api/users', '/no-such-page']) {
    const response = await app.inject({ method: 'GET', url, headers: { cookie, accept: 'text/html' } })
    const csp = directives(response.headers['content-security-policy'])
    t.same(csp.get('script-src'), ["'self'"], `${url} (${response.statusCode}): script-src 'self' only`)
    t.same(csp.get('default-src'), ["'self'"], `${url}: default-src 'self'`)
    t.notOk(csp.has('script-src-elem') || csp.has('script-src-attr'), `${url}: no directive that widens script-src`)
  }
})
