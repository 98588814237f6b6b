import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'

const require = createRequire(import.meta.url)

t.test('htmx 2, Alpine, our stylesheet and scripts come from the app itself', async (t) => {
  const app = await buildTestApp(t)
  const htmx = await app.inject({ url: '/assets/vendor/htmx/htmx.min.js' })
  t.equal(htmx.statusCode, 200)
  t.match(htmx.body, /version:"2\.0\./)
  const alpine = await app.inject({ url: '/assets/vendor/alpine/cdn.min.js' })
  t.equal(alpine.statusCode, 200)
  // The CSP build: the CSP allows no 'unsafe-eval', which the standard build needs.
  t.equal(alpine.body, readFileSync(require.resolve('@alpinejs/csp/dist/cdn.min.js'), 'utf8'), "Alpine's CSP build")
  t.equal((await app.inject({ url: '/assets/vendor/htmx/htmx.js' })).statusCode, 404, 'only the file we use')
  t.equal((await app.inject({ url: '/assets/css/app.css' })).statusCode, 200)
  t.equal((await app.inject({ url: '/assets/js/htmx-setup.js' })).statusCode, 200)
  const login = await app.inject({ url: '/login' })
  t.notMatch(login.body, /https?:\/\//, 'no CDN, no external URL in the page')
  t.notMatch(login.body, /<script>(?!<\/script>)/, 'no inline script (CSP)')
})
