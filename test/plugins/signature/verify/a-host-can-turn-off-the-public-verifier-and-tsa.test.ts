// Every host got an anonymous verifier (POST /api/verify, /verify) and an anonymous timestamp
// authority (POST /pki/tsa) whether it wanted them or not (issue 35 item 13). Each can be turned
// off: the verifier then answers signed-in people only (the panels' verify page posts to the same
// endpoint), the public page and the TSA have no route; the CA certificate, the CRL and OCSP stay.
import t from 'tap'
import { buildSignatureApp } from '../../../helpers/signature-app.ts'

t.test('on by default, both answer', async (t) => {
  const app = await buildSignatureApp(t)
  t.not((await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: Buffer.from('%PDF-1.7\n') })).statusCode, 404)
  t.not((await app.inject({ url: '/verify' })).statusCode, 404)
  t.not((await app.inject({ method: 'POST', url: '/pki/tsa', headers: { 'content-type': 'application/timestamp-query' }, payload: Buffer.from([0x30, 0]) })).statusCode, 404)
})

t.test('turned off: the verifier is for signed-in users, the public page and the TSA have no route; the CA and CRL stay', async (t) => {
  const app = await buildSignatureApp(t, { config: { verify: { public: 'false' }, timestamps: { public_tsa: 'false' } } })
  const verify = await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: Buffer.from('%PDF-1.7\n') })
  t.equal(verify.statusCode, 401, 'POST /api/verify needs a signed-in user')
  t.equal(verify.json().code, 'ERR_UNAUTHENTICATED')
  t.equal((await app.inject({ url: '/verify' })).statusCode, 404, 'GET /verify')
  const tsa = await app.inject({ method: 'POST', url: '/pki/tsa', headers: { 'content-type': 'application/timestamp-query' }, payload: Buffer.from([0x30, 0]) })
  // 405: the path is known to the router (its GET siblings), no longer with POST.
  t.ok([404, 405].includes(tsa.statusCode), `POST /pki/tsa has no handler (${tsa.statusCode})`)
  t.not(tsa.headers['content-type'], 'application/timestamp-reply')
  t.equal((await app.inject({ url: '/pki/ca.pem' })).statusCode, 200, 'the CA certificate')
  t.equal((await app.inject({ url: '/pki/crl' })).statusCode, 200, 'the CRL')
})
