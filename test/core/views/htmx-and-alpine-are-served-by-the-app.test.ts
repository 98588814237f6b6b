import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'

t.test('htmx 2, Alpine, our stylesheet and scripts come from the app itself', async (t) => {
  const app = await buildTestApp(t)
  const htmx = await app.inject({ url: '/assets/vendor/htmx/htmx.min.js' })
  t.equal(htmx.statusCode, 200)
  t.match(htmx.body, /version:"2\.0\./)
  t.equal((await app.inject({ url: '/assets/vendor/alpine/cdn.min.js' })).statusCode, 200)
  t.equal((await app.inject({ url: '/assets/vendor/htmx/htmx.js' })).statusCode, 404, 'only the file we use')
  t.equal((await app.inject({ url: '/assets/css/app.css' })).statusCode, 200)
  t.equal((await app.inject({ url: '/assets/js/htmx-setup.js' })).statusCode, 200)
  const login = await app.inject({ url: '/login' })
  t.notMatch(login.body, /https?:\/\//, 'no CDN, no external URL in the page')
  t.notMatch(login.body, /<script>(?!<\/script>)/, 'no inline script (CSP)')
})
