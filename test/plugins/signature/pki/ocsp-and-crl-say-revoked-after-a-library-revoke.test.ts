// The application's CA as openssl sees it over HTTP: issued certificates name the CRL and OCSP
// addresses; OCSP answers good, then revoked (with the time) once the owner revokes the library
// signature through the API; the CRL lists it; a certificate the register never saw is unknown.
import { writeFile } from 'node:fs/promises'
import t from 'tap'
import { issueUserCertificate, loadCertificateAuthority, readP12 } from '../../../../plugins/signature/certificates/index.ts'
import { listenOrigin } from '../../../../plugins/signature/create-delivery.ts'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { csrfFor } from '../../../helpers/pages.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { opensslFolder, toPem } from './openssl-tools.ts'

const image = `data:image/png;base64,${makeStampPng().toString('base64')}`

t.test('OCSP says good, then revoked with the time after the library revoke; the CRL lists it', async (t) => {
  const app = await buildTestApp(t)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const origin = listenOrigin(app)
  const { file, openssl } = await opensslFolder(t)

  const caResponse = await fetch(`${origin}/pki/ca.pem`)
  t.equal(caResponse.headers.get('content-type'), 'application/x-pem-file')
  t.notOk(caResponse.headers.get('set-cookie'), 'no session is started')
  await writeFile(file('ca.pem'), await caResponse.text())
  const caDer = await fetch(`${origin}/pki/ca.cer`)
  t.equal(caDer.headers.get('content-type'), 'application/pkix-cert')
  await writeFile(file('ca.cer'), Buffer.from(await caDer.arrayBuffer()))
  t.match((await openssl('x509', '-inform', 'DER', '-in', 'ca.cer', '-noout', '-subject')).output, /Signature Application CA/, 'caIssuers serves the CA as DER')

  const staff = await login(app, DEMO.staff.email)
  const csrf = await csrfFor(app, staff)
  const created = await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie: staff, 'x-csrf-token': csrf }, payload: { label: 'Sam', image, certificate: { mode: 'issue' } } })
  t.equal(created.statusCode, 201)
  const uuid = created.json().data.uuid as string
  const material = await app.signature.library.signingMaterial(DEMO.staff.id, uuid)
  const identity = readP12(material.p12, material.password)
  await writeFile(file('user.pem'), toPem(identity.certificates[0]!))

  const text = (await openssl('x509', '-in', 'user.pem', '-noout', '-text')).output
  t.match(text, /X509v3 CRL Distribution Points:[\s\S]*?URI:(\S+)/, 'a CRL distribution point')
  t.equal(/CRL Distribution Points:[\s\S]*?URI:(\S+)/.exec(text)![1], `${origin}/pki/crl`)
  t.equal(/OCSP - URI:(\S+)/.exec(text)?.[1], `${origin}/pki/ocsp`, 'AIA: OCSP at the listen address')
  t.equal(/CA Issuers - URI:(\S+)/.exec(text)?.[1], `${origin}/pki/ca.cer`, 'AIA: caIssuers')

  const ask = () => openssl('ocsp', '-issuer', 'ca.pem', '-cert', 'user.pem', '-url', `${origin}/pki/ocsp`, '-CAfile', 'ca.pem', '-resp_text')
  const good = await ask()
  t.equal(good.code, 0, 'openssl ocsp exits 0')
  t.match(good.output, /Response verify OK/, 'signed by the CA, nonce echoed (openssl checks it)')
  t.match(good.output, /user\.pem: good/)
  t.notMatch(good.output, /WARNING: no nonce/)
  const bySha256 = await openssl('ocsp', '-sha256', '-issuer', 'ca.pem', '-cert', 'user.pem', '-url', `${origin}/pki/ocsp`, '-CAfile', 'ca.pem')
  t.match(bySha256.output, /user\.pem: good/, 'a CertID hashed with SHA-256 is matched too')

  const before = Date.now()
  const revoked = await app.inject({ method: 'DELETE', url: `/api/signatures/${uuid}`, headers: { cookie: staff, 'x-csrf-token': csrf } })
  t.equal(revoked.statusCode, 204)
  const row = await app.signature.database.db.selectFrom('issued_certificates').selectAll().where('signature_uuid', '=', uuid).executeTakeFirstOrThrow()
  t.ok(Date.parse(row.revoked_at!) >= before - 1000, 'the revocation time is recorded')

  const after = await ask()
  t.match(after.output, /Response verify OK/)
  t.match(after.output, /user\.pem: revoked/)
  const when = /Revocation Time: (.+)/.exec(after.output)?.[1]
  t.ok(when, 'with a revocation time')
  t.equal(Math.floor(new Date(when!).getTime() / 1000), Math.floor(Date.parse(row.revoked_at!) / 1000), 'the time the signature was revoked')

  const crl = await fetch(`${origin}/pki/crl`)
  t.equal(crl.headers.get('content-type'), 'application/pkix-crl')
  await writeFile(file('crl.der'), Buffer.from(await crl.arrayBuffer()))
  const crlText = await openssl('crl', '-inform', 'DER', '-in', 'crl.der', '-noout', '-text', '-CAfile', 'ca.pem')
  t.match(crlText.output, /verify OK/, 'the CRL is signed by the CA')
  t.match(crlText.output, /X509v3 CRL Number:\s+\d+/)
  t.match(crlText.output, /Next Update: \w+/)
  t.equal(/Serial Number: (\S+)/.exec(crlText.output)?.[1]?.toLowerCase(), row.serial, 'the revoked serial is listed')
  t.match(crlText.output, /Revocation Date: \w+/)

  // A certificate from the same CA that the register never recorded: OCSP does not vouch for it.
  const stranger = issueUserCertificate(loadCertificateAuthority(app.signature.certificateAuthority), { name: 'Nobody', email: 'nobody@example.org' })
  await writeFile(file('stranger.pem'), toPem(readP12(stranger.p12, stranger.password).certificates[0]!))
  const unknown = await openssl('ocsp', '-issuer', 'ca.pem', '-cert', 'stranger.pem', '-url', `${origin}/pki/ocsp`, '-CAfile', 'ca.pem')
  t.match(unknown.output, /stranger\.pem: unknown/)
})

t.test("the application signer's certificate (it certifies every session document) is in the CA's register", async (t) => {
  const app = await buildTestApp(t)
  const subjects = async () => (await app.signature.database.db.selectFrom('issued_certificates').select(['subject', 'signature_uuid', 'revoked_at']).orderBy('subject').execute())
  t.same((await subjects()).map((r) => r.subject), ['CN=Signature Application TSA'], 'at boot: the TSA only')
  const admin = await login(app, DEMO.admin.email)
  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'sequential' } })
  t.equal(created.statusCode, 201, 'a session freezes its document with the application signer')
  t.match(await subjects(), [{ subject: 'CN=Signature Application TSA' }, { subject: /^CN=Signature Application, emailAddress=signing@application\.invalid$/, signature_uuid: null, revoked_at: null }])
})
