import t from 'tap'
import { readP12 } from '../../../../plugins/signature/certificates/index.ts'
import { oddP12, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const issued = testUserCertificate('Refusal Tester')

t.test('a wrong password is ERR_P12_PASSWORD (422)', async (t) => {
  t.throws(() => readP12(issued.p12, `${issued.password}x`), { code: 'ERR_P12_PASSWORD', statusCode: 422 })
})

t.test('bytes that are not PKCS#12 are ERR_P12_INVALID (422)', async (t) => {
  t.throws(() => readP12(Buffer.from('%PDF-1.7 not a certificate'), 'x'), { code: 'ERR_P12_INVALID', statusCode: 422 })
  t.throws(() => readP12(issued.p12.subarray(0, 200), issued.password), { code: 'ERR_P12_INVALID' })
  t.throws(() => readP12(Buffer.alloc(0), 'x'), { code: 'ERR_P12_INVALID' })
})

t.test('a certificate whose key usage excludes signing is ERR_CERT_NO_SIGNING_USAGE', async (t) => {
  const p12 = oddP12('pw', { keyUsage: { keyEncipherment: true, dataEncipherment: true } })
  t.throws(() => readP12(p12, 'pw'), { code: 'ERR_CERT_NO_SIGNING_USAGE', statusCode: 422 })
  // Without a keyUsage extension any use is allowed (RFC 5280), and nonRepudiation alone suffices.
  t.doesNotThrow(() => readP12(oddP12('pw', {}), 'pw'))
  t.doesNotThrow(() => readP12(oddP12('pw', { keyUsage: { nonRepudiation: true } }), 'pw'))
})

t.test('an expired certificate is ERR_CERT_EXPIRED, a future one ERR_CERT_NOT_YET_VALID', async (t) => {
  const day = 86_400_000
  const expired = oddP12('pw', { notBefore: new Date(Date.now() - 30 * day), notAfter: new Date(Date.now() - day) })
  t.throws(() => readP12(expired, 'pw'), { code: 'ERR_CERT_EXPIRED', statusCode: 422 })
  const future = oddP12('pw', { notBefore: new Date(Date.now() + day), notAfter: new Date(Date.now() + 30 * day) })
  t.throws(() => readP12(future, 'pw'), { code: 'ERR_CERT_NOT_YET_VALID' })
  // Validity is judged at the moment asked for, so a past signing time can be checked.
  t.doesNotThrow(() => readP12(expired, 'pw', { at: new Date(Date.now() - 2 * day) }))
})
