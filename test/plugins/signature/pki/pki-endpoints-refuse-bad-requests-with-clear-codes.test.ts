// /pki needs no session and takes DER from anyone, so each bad request gets a clear refusal:
// too large 413, wrong type 415, empty 400, unreadable DER the protocol's own refusal, and a
// client that asks too often 429 with Retry-After.
import { readFile, writeFile } from 'node:fs/promises'
import t from 'tap'
import { PKI_BODY_LIMITS } from '../../../../plugins/signature/pki/pki-routes.ts'
import { buildSignatureApp } from '../../../helpers/signature-app.ts'
import { opensslFolder } from './openssl-tools.ts'

t.test('oversize, mistyped and empty bodies are refused before any DER is read', async (t) => {
  const app = await buildSignatureApp(t)
  const post = (url: string, type: string, payload: Buffer | string) => app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload })

  for (const [url, type, limit] of [['/pki/tsa', 'application/timestamp-query', PKI_BODY_LIMITS.tsa], ['/pki/ocsp', 'application/ocsp-request', PKI_BODY_LIMITS.ocsp]] as const) {
    const big = await post(url, type, Buffer.alloc(limit + 1, 0x30))
    t.equal(big.statusCode, 413, `${url}: one byte over the cap`)
    t.equal(big.json().code, 'ERR_BODY_TOO_LARGE')
    const json = await post(url, 'application/json', '{}')
    t.equal(json.statusCode, 415, `${url}: JSON`)
    t.equal(json.json().code, 'ERR_UNSUPPORTED_MEDIA_TYPE')
    t.match(json.json().message, type)
    const octets = await post(url, 'application/octet-stream', Buffer.from([0x30, 0]))
    t.equal(octets.statusCode, 415, `${url}: another binary type`)
    t.match(octets.json(), { code: 'ERR_UNSUPPORTED_MEDIA_TYPE', message: `Send the body as ${type}` })
    const empty = await post(url, type, Buffer.alloc(0))
    t.equal(empty.statusCode, 400, `${url}: empty`)
    t.equal(empty.json().code, 'ERR_PKI_EMPTY_REQUEST')
  }
  const tooBigTsa = await post('/pki/tsa', 'application/timestamp-query', Buffer.alloc(PKI_BODY_LIMITS.tsa, 0x30))
  t.equal(tooBigTsa.statusCode, 200, 'at the cap the body is read (and refused by the protocol)')
  t.equal(tooBigTsa.headers['content-type'], 'application/timestamp-reply')

  const badGet = await app.inject({ url: '/pki/ocsp/not%20base64!' })
  t.equal(badGet.statusCode, 400)
  t.equal(badGet.json().code, 'ERR_PKI_BAD_ENCODING')
})

t.test('OCSP: unreadable requests get malformedRequest; the GET form answers like POST', async (t) => {
  const app = await buildSignatureApp(t)
  const { file, openssl } = await opensslFolder(t)
  const junk = await app.inject({ method: 'POST', url: '/pki/ocsp', headers: { 'content-type': 'application/ocsp-request' }, payload: Buffer.from('not DER at all') })
  t.equal(junk.statusCode, 200)
  t.equal(junk.headers['content-type'], 'application/ocsp-response')
  await writeFile(file('junk.der'), junk.rawPayload)
  t.match((await openssl('ocsp', '-respin', 'junk.der', '-resp_text', '-noverify')).output, /malformedrequest/i)

  await writeFile(file('ca.pem'), (await app.inject({ url: '/pki/ca.pem' })).body)
  t.equal((await openssl('ocsp', '-issuer', 'ca.pem', '-serial', '0x1234', '-reqout', 'req.der')).code, 0)
  const encoded = encodeURIComponent((await readFile(file('req.der'))).toString('base64'))
  const viaGet = await app.inject({ url: `/pki/ocsp/${encoded}` })
  t.equal(viaGet.statusCode, 200)
  t.equal(viaGet.headers['content-type'], 'application/ocsp-response')
  await writeFile(file('resp.der'), viaGet.rawPayload)
  // With -reqin openssl also checks the nonce of that request against the response's.
  const text = (await openssl('ocsp', '-respin', 'resp.der', '-reqin', 'req.der', '-CAfile', 'ca.pem', '-verify_other', 'ca.pem', '-resp_text')).output
  t.match(text, /Response verify OK/)
  t.match(text, /Serial Number: 1234\s+Cert Status: unknown/, 'a serial the CA never issued is unknown')
})

t.test('a client that asks too often gets 429 with Retry-After; the answers need no session', async (t) => {
  const app = await buildSignatureApp(t, { pkiRateLimit: { max: 3, windowMs: 60_000 } })
  for (let i = 0; i < 3; i++) {
    const ok = await app.inject({ url: '/pki/crl' })
    t.equal(ok.statusCode, 200)
    t.notOk(ok.headers['set-cookie'], 'no cookie is set')
  }
  const limited = await app.inject({ url: '/pki/crl' })
  t.equal(limited.statusCode, 429)
  t.equal(limited.json().code, 'ERR_TOO_MANY_REQUESTS')
  t.ok(Number(limited.headers['retry-after']) > 0 && Number(limited.headers['retry-after']) <= 60)
  t.equal((await app.inject({ url: '/pki/crl', remoteAddress: '10.0.0.2' })).statusCode, 200, 'another client is not affected')
  // Each route has a bucket of its own (issue 35 item 12): a client that used up the CRL's, or
  // flooded the timestamp authority, still gets the CA certificate and OCSP answers.
  t.equal((await app.inject({ url: '/pki/ca.pem' })).statusCode, 200, 'the CA certificate has its own bucket')
})
