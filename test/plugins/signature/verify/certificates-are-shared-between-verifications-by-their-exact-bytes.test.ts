// Parsed certificates are shared between verifications (certificate-reader.ts), keyed by the whole
// DER and bounded. Two certificates that differ in one byte of their signature (same length, same
// names) are two certificates; an oversized one is read but not kept; the shared set stays bounded.
import t from 'tap'
import { CertificateReader, sharedCertificateCount } from '../../../../plugins/signature/verify/certificate-reader.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'
import { readP12 } from '../../../../plugins/signature/certificates/index.ts'

const issued = testUserCertificate('Shared Reader')
const der = readP12(issued.p12, issued.password).certificates[0]!

t.test('a second verification gets the parse the first one made', async (t) => {
  const first = new CertificateReader().read(Buffer.from(der))
  const second = new CertificateReader().read(Buffer.from(der))
  t.equal(second, first)
})

t.test('one byte of difference is another certificate', async (t) => {
  const reader = new CertificateReader()
  const genuine = reader.read(der)
  const altered = Buffer.from(der)
  altered[altered.length - 1] = altered[altered.length - 1]! ^ 0x01
  const other = new CertificateReader().read(altered)
  t.not(other, genuine)
  t.not(other.fingerprint256, genuine.fingerprint256)
  t.ok(Buffer.from(other.raw).equals(altered), 'the certificate read is the bytes given')
  t.ok(Buffer.from(new CertificateReader().read(der).raw).equals(der))
})

t.test('what is not a certificate throws and is not kept', async (t) => {
  const before = sharedCertificateCount()
  t.throws(() => new CertificateReader().read(Buffer.from('30030101ff', 'hex')))
  t.equal(sharedCertificateCount(), before)
})

t.test('the shared set is bounded', async (t) => {
  const reader = new CertificateReader()
  for (let i = 0; i < 300; i++) {
    const copy = Buffer.from(der)
    copy.writeUInt16BE(i, copy.length - 2) // another signature value: another certificate to node:crypto
    reader.read(copy)
  }
  t.ok(sharedCertificateCount() <= 256, `${sharedCertificateCount()} kept`)
})
