import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'
import { STAMP_DATA_URL } from './helpers.ts'

t.test('creating a signature: a wrong PKCS#12 password and a bogus image are clear 422s; the right password works', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.staff.email)
  const certificate = testUserCertificate('Sam Staff', 'staff@example.com')
  const post = (payload: object) => app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie }, payload })
  const p12 = certificate.p12.toString('base64')

  const wrong = await post({ label: 'x', image: STAMP_DATA_URL, certificate: { mode: 'upload', p12, password: 'not-the-password' } })
  t.equal(wrong.statusCode, 422, wrong.body)
  t.match(wrong.json().code, /^ERR_P12/)
  const bogus = await post({ label: 'x', image: `data:image/png;base64,${Buffer.from('\x89PNG\r\n\x1a\nnot really').toString('base64')}`, certificate: { mode: 'issue' } })
  t.equal(bogus.statusCode, 422)
  t.equal(bogus.json().code, 'ERR_IMAGE_INVALID')
  const gif = await post({ label: 'x', image: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=', certificate: { mode: 'issue' } })
  t.equal(gif.statusCode >= 400 && gif.statusCode < 500, true, `a GIF is refused (${gif.statusCode})`)
  t.same((await app.inject({ url: '/api/signatures', headers: { cookie } })).json().data, [], 'nothing stored')

  const right = await post({ label: 'Uploaded', image: STAMP_DATA_URL, certificate: { mode: 'upload', p12, password: certificate.password } })
  t.equal(right.statusCode, 201, right.body)
  t.match(right.json().data.certificate, { source: 'uploaded', subject: /Sam Staff/ })
})
