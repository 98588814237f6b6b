// Two instances booting at once on one storage folder and one database (PostgreSQL in the
// suite's PostgreSQL pass) are one PKI: the same CA and TSA certificates, and a revocation made
// through one is what the other's OCSP and CRL report.
import { readFile, writeFile } from 'node:fs/promises'
import t from 'tap'
import { buildApp } from '../../../../host-app/app.ts'
import { readP12 } from '../../../../plugins/signature/certificates/index.ts'
import { DEMO, login } from '../../../helpers/app.ts'
import { isolatedEnv } from '../../../helpers/test-env.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { opensslFolder, toPem } from './openssl-tools.ts'

const image = `data:image/png;base64,${makeStampPng().toString('base64')}`

t.test('a revocation through one instance is reported by the other', async (t) => {
  const { env, cleanup } = await isolatedEnv()
  // On PostgreSQL (several instances' database) booted together: both race to create the key
  // files and to run the migrations. SQLite is one instance's database: its migrations take no
  // lock across connections, so there the second boots after the first.
  const [a, b] = process.env.DATABASE_URL
    ? await Promise.all([buildApp({ env }), buildApp({ env })])
    : [await buildApp({ env }), await buildApp({ env })]
  t.teardown(async () => {
    await Promise.all([a.close(), b.close()])
    await cleanup()
  })
  await Promise.all([a.ready(), b.ready()])
  const { file, openssl } = await opensslFolder(t)

  const caPem = (await a.inject({ url: '/pki/ca.pem' })).body
  t.equal((await b.inject({ url: '/pki/ca.pem' })).body, caPem, 'one CA')
  t.same(b.signature.pki.timestampAuthority.certificates, a.signature.pki.timestampAuthority.certificates, 'one TSA certificate')
  await writeFile(file('ca.pem'), caPem)

  const staff = await login(a, DEMO.staff.email)
  const created = await a.inject({ method: 'POST', url: '/api/signatures', headers: { cookie: staff }, payload: { label: 'Sam', image, certificate: { mode: 'issue' } } })
  t.equal(created.statusCode, 201)
  const uuid = created.json().data.uuid as string
  const material = await a.signature.library.signingMaterial(DEMO.staff.id, uuid)
  await writeFile(file('user.pem'), toPem(readP12(material.p12, material.password).certificates[0]!))
  t.equal((await openssl('ocsp', '-issuer', 'ca.pem', '-cert', 'user.pem', '-reqout', 'req.der')).code, 0)

  const askB = async () => {
    const answer = await b.inject({ method: 'POST', url: '/pki/ocsp', headers: { 'content-type': 'application/ocsp-request' }, payload: await readFile(file('req.der')) })
    await writeFile(file('resp.der'), answer.rawPayload)
    return (await openssl('ocsp', '-respin', 'resp.der', '-reqin', 'req.der', '-CAfile', 'ca.pem', '-verify_other', 'ca.pem', '-resp_text')).output
  }
  const before = await askB()
  t.match(before, /Response verify OK/)
  t.match(before, /Cert Status: good/, 'B knows the certificate A issued')

  t.equal((await a.inject({ method: 'DELETE', url: `/api/signatures/${uuid}`, headers: { cookie: staff } })).statusCode, 204)
  const after = await askB()
  t.match(after, /Response verify OK/)
  t.match(after, /Cert Status: revoked\s+Revocation Time: \w+/, 'B says revoked, with the time')
  await writeFile(file('crl.der'), (await b.inject({ url: '/pki/crl' })).rawPayload)
  t.match((await openssl('crl', '-inform', 'DER', '-in', 'crl.der', '-noout', '-text')).output, /Revoked Certificates:\s+Serial Number: \w+\s+Revocation Date/, "B's CRL lists it")
})
