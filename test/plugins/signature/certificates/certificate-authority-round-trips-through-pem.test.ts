import { X509Certificate } from 'node:crypto'
import t from 'tap'
import {
  createCertificateAuthority,
  issueUserCertificate,
  loadCertificateAuthority,
  readP12,
  serializeCertificateAuthority,
} from '../../../../plugins/signature/certificates/index.ts'

const ca = createCertificateAuthority({ commonName: 'Round Trip CA', organization: 'Example' })

t.test('a serialized CA is PEM key + PEM certificate, self-signed, a CA', async (t) => {
  const { keyPem, certPem } = serializeCertificateAuthority(ca)
  t.match(keyPem, /^-----BEGIN PRIVATE KEY-----/)
  const cert = new X509Certificate(certPem)
  t.equal(cert.ca, true)
  t.ok(cert.verify(cert.publicKey), 'self-signed')
  t.match(cert.subject, /CN=Round Trip CA/)
  t.equal(cert.publicKey.asymmetricKeyDetails?.modulusLength, 2048)
})

t.test('a loaded CA issues certificates the original CA certificate verifies', async (t) => {
  const loaded = loadCertificateAuthority(serializeCertificateAuthority(ca))
  const issued = issueUserCertificate(loaded, { name: 'Grace Hopper', email: 'grace@example.org' })
  const own = new X509Certificate(readP12(issued.p12, issued.password).certificates[0]!)
  t.ok(own.verify(new X509Certificate(ca.certificatePem).publicKey))
})

t.test('a key that does not match the certificate is refused at load', async (t) => {
  const other = createCertificateAuthority()
  t.throws(() =>
    loadCertificateAuthority({ keyPem: serializeCertificateAuthority(other).keyPem, certPem: ca.certificatePem }),
  /does not match/)
})
