// Past its per-address limit, POST /api/verify is refused before its body is read: a 26 MB JSON
// body parsed only to be refused held the event loop up to 0.5 s per request (issue 35 item 12).
// A body that cannot be parsed shows which came first: read first, it is a 400; refused first, 429.
import t from 'tap'
import { buildSignatureApp } from '../../../helpers/signature-app.ts'

t.test('a request past the limit is answered 429 without its body being parsed', async (t) => {
  const app = await buildSignatureApp(t, { config: { verify: { rate_per_minute: 1 } } })
  const broken = () => app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/json' }, payload: '{"pdf": "unterminated' })
  const first = await broken()
  t.equal(first.statusCode, 400, 'within the limit, the broken body is read and refused as such')
  const refused = await broken()
  t.equal(refused.statusCode, 429, 'past the limit, refused before the parser saw the body')
  t.equal(refused.json().code, 'ERR_VERIFY_RATE_LIMITED')
  t.match(refused.headers['retry-after'], /^\d+$/)
})
