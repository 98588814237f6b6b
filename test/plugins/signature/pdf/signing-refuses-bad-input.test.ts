// Everything a caller can get wrong is refused with a stable code before any byte is written.
import t from 'tap'
import { freezeDocument, normalizePdf, signDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { qpdfEncrypt } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { oddP12, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const pdf = await makePdf()
const signer = testUserCertificate('Bad Input Signer')
const image = makeStampPng()
const stamp = { page: 1, x: 50, y: 50, width: 120, height: 50, image }
const frozen = await freezeDocument(pdf, { fields: [{ name: 'f', page: 1, x: 50, y: 50, width: 120, height: 50 }], signer })

t.test('a wrong P12 password is ERR_P12_PASSWORD', async (t) => {
  const wrong = { p12: signer.p12, password: 'not-it' }
  await t.rejects(signDocument(pdf, { stamps: [stamp], signer: wrong }), { code: 'ERR_P12_PASSWORD', statusCode: 422 })
  await t.rejects(signField(frozen, { fieldName: 'f', image, signer: wrong }), { code: 'ERR_P12_PASSWORD' })
  await t.rejects(freezeDocument(pdf, { fields: [], signer: wrong }), { code: 'ERR_P12_PASSWORD' })
})

t.test('a certificate without signing key usage is ERR_CERT_NO_SIGNING_USAGE', async (t) => {
  const encryptionOnly = { p12: oddP12('pw', { keyUsage: { keyEncipherment: true } }), password: 'pw' }
  await t.rejects(signDocument(pdf, { stamps: [stamp], signer: encryptionOnly }), { code: 'ERR_CERT_NO_SIGNING_USAGE' })
  await t.rejects(signField(frozen, { fieldName: 'f', image, signer: encryptionOnly }), { code: 'ERR_CERT_NO_SIGNING_USAGE' })
})

t.test('an expired certificate is ERR_CERT_EXPIRED', async (t) => {
  const day = 86_400_000
  const expired = { p12: oddP12('pw', { notBefore: new Date(Date.now() - 9 * day), notAfter: new Date(Date.now() - day) }), password: 'pw' }
  await t.rejects(signDocument(pdf, { stamps: [stamp], signer: expired }), { code: 'ERR_CERT_EXPIRED' })
})

t.test('bogus image bytes are ERR_IMAGE_INVALID', async (t) => {
  const bogus = [Buffer.from('GIF89a not supported'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]), Buffer.from([0xff, 0xd8, 0xff, 0, 0, 0])]
  for (const bytes of bogus) {
    await t.rejects(signDocument(pdf, { stamps: [{ ...stamp, image: bytes }], signer }), { code: 'ERR_IMAGE_INVALID', statusCode: 422 })
    await t.rejects(signField(frozen, { fieldName: 'f', image: bytes, signer }), { code: 'ERR_IMAGE_INVALID' })
  }
})

t.test('a stamp on a page that does not exist is ERR_PAGE_OUT_OF_RANGE', async (t) => {
  await t.rejects(signDocument(pdf, { stamps: [{ ...stamp, page: 2 }], signer }), { code: 'ERR_PAGE_OUT_OF_RANGE' })
  await t.rejects(signDocument(pdf, { stamps: [{ ...stamp, page: 0 }], signer }), { code: 'ERR_PAGE_OUT_OF_RANGE' })
})

t.test('bytes that are not a PDF are ERR_PDF_INVALID', async (t) => {
  const notPdfs = [Buffer.from('hello world'), Buffer.alloc(0), image, Buffer.from('%PDF-1.7\n%%EOF\n'), Buffer.from(pdf).subarray(0, 300)]
  for (const bytes of notPdfs) {
    await t.rejects(normalizePdf(bytes), { code: 'ERR_PDF_INVALID', statusCode: 422 })
    await t.rejects(signDocument(bytes, { stamps: [stamp], signer }), { code: 'ERR_PDF_INVALID' })
    await t.rejects(signField(bytes, { fieldName: 'f', image, signer }), { code: 'ERR_PDF_INVALID' })
  }
})

t.test('an encrypted PDF (encrypted by qpdf) is ERR_PDF_ENCRYPTED', async (t) => {
  for (const password of ['', 'user-secret']) {
    const encrypted = await qpdfEncrypt(pdf, password)
    await t.rejects(normalizePdf(encrypted), { code: 'ERR_PDF_ENCRYPTED', statusCode: 422 }, `user password ${JSON.stringify(password)}`)
    await t.rejects(signDocument(encrypted, { stamps: [stamp], signer }), { code: 'ERR_PDF_ENCRYPTED' })
  }
})

t.test('a signed PDF is never rewritten: ERR_PDF_ALREADY_SIGNED', async (t) => {
  await t.rejects(normalizePdf(frozen), { code: 'ERR_PDF_ALREADY_SIGNED', statusCode: 409 })
  await t.rejects(signDocument(frozen, { stamps: [stamp], signer }), { code: 'ERR_PDF_ALREADY_SIGNED' })
  await t.rejects(freezeDocument(frozen, { fields: [], signer }), { code: 'ERR_PDF_ALREADY_SIGNED' })
})
