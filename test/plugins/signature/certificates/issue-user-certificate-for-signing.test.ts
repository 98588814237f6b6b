import { X509Certificate } from 'node:crypto'
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { createCertificateAuthority, issueUserCertificate, readP12 } from '../../../../plugins/signature/certificates/index.ts'

const ca = createCertificateAuthority({ commonName: 'Issuing Test CA' })
const before = Date.now()
const issued = issueUserCertificate(ca, { name: 'Ada Lovelace', email: 'ada@example.org' })

t.test('the PKCS#12 opens with its password and yields a usable key and the chain', async (t) => {
  const identity = readP12(issued.p12, issued.password)
  t.equal(identity.certificates.length, 2, 'own certificate and the CA')
  const own = new X509Certificate(identity.certificates[0]!)
  const caCert = new X509Certificate(ca.certificatePem)
  t.ok(own.checkPrivateKey(identity.privateKey), 'the key belongs to the first certificate')
  t.ok(own.verify(caCert.publicKey), 'the CA signed it')
  t.ok(own.checkIssued(caCert), 'issuer name is the CA subject')
  t.equal(new X509Certificate(identity.certificates[1]!).fingerprint256, caCert.fingerprint256)
  t.match(own.subject, /CN=Ada Lovelace/)
  t.match(own.subject, /emailAddress=ada@example.org/)
  t.equal(identity.subject, issued.subject)
  t.match(issued.subject, /CN=Ada Lovelace/)
})

t.test('it is valid for 2 to 3 years and meant for signing documents', async (t) => {
  const own = new X509Certificate(readP12(issued.p12, issued.password).certificates[0]!)
  const years = (issued.notAfter.getTime() - before) / (365.25 * 86_400_000)
  t.ok(years >= 2 && years <= 3.01, `validity of ${years.toFixed(2)} years`)
  t.equal(new Date(own.validTo).getTime(), Math.floor(issued.notAfter.getTime() / 1000) * 1000)
  t.equal(own.ca, false)
  t.same(
    [...(own.keyUsage ?? [])].sort(),
    ['1.2.840.113583.1.1.5', '1.3.6.1.4.1.311.10.3.12', '1.3.6.1.5.5.7.3.4'],
    'extended key usage: emailProtection, MS document signing, Adobe authentic documents',
  )
})

t.test('every password is random and long', async (t) => {
  const other = issueUserCertificate(ca, { name: 'Ada Lovelace', email: 'ada@example.org' })
  t.not(other.password, issued.password)
  t.ok(issued.password.length >= 20)
})

t.test('openssl (written by others) opens the file and sees the key usage', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'p12-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await writeFile(join(dir, 'u.p12'), issued.p12)
  await writeFile(join(dir, 'pw'), issued.password)
  const run = promisify(execFile)
  const { stdout: pem } = await run('openssl', ['pkcs12', '-in', join(dir, 'u.p12'), '-passin', `file:${join(dir, 'pw')}`, '-clcerts', '-nokeys'])
  await writeFile(join(dir, 'u.pem'), pem)
  const { stdout } = await run('openssl', ['x509', '-in', join(dir, 'u.pem'), '-noout', '-text'])
  t.match(stdout, /Key Usage: critical\s+Digital Signature, Non Repudiation/)
  t.match(stdout, /E-mail Protection/)
})
