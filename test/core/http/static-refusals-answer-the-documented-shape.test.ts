import t from 'tap'
import { buildTestApp } from '../../helpers/app.ts'
import { listenLocally, rawGet } from './raw-http.ts'

const DOCUMENTED_KEYS = ['code', 'error', 'message', 'statusCode']

t.test('the static plugin refusing a path answers 403 in our shape, not 500', async (t) => {
  const app = await buildTestApp(t)
  const port = await listenLocally(app)
  for (const path of ['/assets/css/../css/app.css', '/assets/../package.json', '/assets/css/%2e%2e/css/app.css']) {
    const response = await rawGet(port, path)
    t.equal(response.status, 403, `${path}: the plugin's own status`)
    const body = JSON.parse(response.body)
    t.same(Object.keys(body).sort(), DOCUMENTED_KEYS, `${path}: {statusCode, code, error, message}`)
    t.match(body, { statusCode: 403, code: 'ERR_FORBIDDEN_PATH', error: 'Forbidden' })
    t.equal(response.headers['x-content-type-options'], 'nosniff')
    t.ok(response.headers['content-security-policy'], 'with the security headers')
  }
  const missing = await rawGet(port, '/assets/css/nope.css')
  t.equal(missing.status, 404)
  t.equal(JSON.parse(missing.body).code, 'ERR_NOT_FOUND')
})

t.test("the file sender's conditional and range refusals keep their status and get our shape", async (t) => {
  const app = await buildTestApp(t)
  const cases: Array<[Record<string, string>, number, string]> = [
    [{ range: 'bytes=99999999-' }, 416, 'ERR_RANGE_NOT_SATISFIABLE'],
    [{ 'if-match': '"not-this-one"' }, 412, 'ERR_PRECONDITION_FAILED'],
  ]
  for (const [headers, status, code] of cases) {
    const response = await app.inject({ url: '/assets/css/app.css', headers })
    t.equal(response.statusCode, status, JSON.stringify(headers))
    t.match(response.json(), { statusCode: status, code })
  }
})
