// A PKCS#12 opened once is not decrypted again (forge's PBKDF2 and AES were most of an /api/sign),
// but the shortcut changes no answer: a wrong password is still refused, and the certificate's
// validity is checked at each use's moment.
import { performance } from 'node:perf_hooks'
import t from 'tap'
import { readP12 } from '../../../../plugins/signature/certificates/read-p12.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

t.test('the second opening of the same file with the same password skips the decryption', async (t) => {
  const { p12, password } = testUserCertificate('Reused')
  let start = performance.now()
  const first = readP12(p12, password)
  const cold = performance.now() - start
  start = performance.now()
  const second = readP12(Uint8Array.from(p12), password)
  const warm = performance.now() - start
  t.equal(second.privateKey, first.privateKey, 'the same opened key, from a copy of the bytes')
  t.ok(warm * 5 < cold, `opened in ${cold.toFixed(1)} ms, then in ${warm.toFixed(2)} ms`)
})

t.test('a wrong password after a right one is still refused', async (t) => {
  const { p12, password } = testUserCertificate('Guarded')
  readP12(p12, password)
  t.throws(() => readP12(p12, `${password}x`), { code: 'ERR_P12_PASSWORD' })
})

t.test('validity is checked at each use, opened or not', async (t) => {
  const { p12, password } = testUserCertificate('Dated')
  const identity = readP12(p12, password)
  t.throws(() => readP12(p12, password, { at: new Date(identity.notAfter.getTime() + 1000) }), { code: 'ERR_CERT_EXPIRED' })
  t.throws(() => readP12(p12, password, { at: new Date(Date.now() - 10 * 86_400_000) }), { code: 'ERR_CERT_NOT_YET_VALID' })
  t.ok(readP12(p12, password), 'and still opens now')
})
