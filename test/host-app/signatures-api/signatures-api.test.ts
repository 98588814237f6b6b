import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { makeStampPng } from '../../fixtures/pdf/stamp-image.ts'

const image = `data:image/png;base64,${makeStampPng().toString('base64')}`

t.test('/api/signatures: create with an issued certificate, list, patch, image, revoke — own signatures only', async (t) => {
  const app = await buildTestApp(t)
  const staff = await login(app, DEMO.staff.email)
  const manager = await login(app, DEMO.manager.email)
  t.equal((await app.inject({ url: '/api/signatures' })).statusCode, 401)

  const created = await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie: staff }, payload: { label: 'Sam', image, certificate: { mode: 'issue' } } })
  t.equal(created.statusCode, 201)
  const sig = created.json().data
  t.match(sig, { label: 'Sam', status: 'active', primary: true, certificate: { source: 'issued', subject: /Sam Staff/ } })
  t.equal(created.headers.location, `/api/signatures/${sig.uuid}`)
  t.notMatch(created.body, /p12|password/i, 'no certificate secrets in the answer')

  t.same((await app.inject({ url: '/api/signatures', headers: { cookie: staff } })).json().data.map((s: { uuid: string }) => s.uuid), [sig.uuid])
  t.same((await app.inject({ url: '/api/signatures', headers: { cookie: manager } })).json().data, [], "nobody sees another user's signatures")
  for (const [method, url] of [['GET', `/api/signatures/${sig.uuid}`], ['GET', `/api/signatures/${sig.uuid}/image`], ['PATCH', `/api/signatures/${sig.uuid}`], ['DELETE', `/api/signatures/${sig.uuid}`]] as const) {
    const res = await app.inject({ method, url, headers: { cookie: manager }, ...(method === 'PATCH' ? { payload: { label: 'x' } } : {}) })
    t.equal(res.statusCode, 404, `${method} ${url} by another user`)
  }

  const img = await app.inject({ url: `/api/signatures/${sig.uuid}/image`, headers: { cookie: staff } })
  t.equal(img.headers['content-type'], 'image/png')
  t.same(img.rawPayload, makeStampPng())
  t.equal((await app.inject({ method: 'PATCH', url: `/api/signatures/${sig.uuid}`, headers: { cookie: staff }, payload: { label: 'Sam S.' } })).json().data.label, 'Sam S.')
  t.equal((await app.inject({ method: 'DELETE', url: `/api/signatures/${sig.uuid}`, headers: { cookie: staff } })).statusCode, 204)
  t.equal((await app.inject({ url: `/api/signatures/${sig.uuid}`, headers: { cookie: staff } })).json().data.status, 'revoked')
})

t.test('bad signatures are refused with a clear code and nothing is stored', async (t) => {
  const app = await buildTestApp(t)
  const staff = await login(app, DEMO.staff.email)
  const post = (payload: object) => app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie: staff }, payload })
  t.equal((await post({ label: 'x', image: 'data:image/png;base64,aGVsbG8=', certificate: { mode: 'issue' } })).json().code, 'ERR_IMAGE_INVALID')
  t.equal((await post({ label: 'x', image, certificate: { mode: 'upload', p12: 'AAAA', password: 'x' } })).json().code, 'ERR_P12_INVALID')
  t.equal((await post({ label: 'x', image, certificate: { mode: 'issue' }, userId: 'u-admin' })).statusCode, 400)
  t.same((await app.inject({ url: '/api/signatures', headers: { cookie: staff } })).json().data, [])
})
