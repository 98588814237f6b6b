import { PDFDocument } from 'pdf-lib'
import t from 'tap'
import { freezeDocument, signDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { createSignatureField } from '../../../../plugins/signature/pdf/create-signature-field.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const app = testUserCertificate('Field Refusal App')
const signer = testUserCertificate('Field Refusal Signer')
const image = makeStampPng()
const frozen = await freezeDocument(await makePdf(), { fields: [{ name: 'only', page: 1, x: 20, y: 20, width: 100, height: 40 }], signer: app })

t.test('an unknown field name is ERR_FIELD_NOT_FOUND (404)', async (t) => {
  await t.rejects(signField(frozen, { fieldName: 'nobody', image, signer }), { code: 'ERR_FIELD_NOT_FOUND', statusCode: 404 })
})

t.test('the certification field is already signed: ERR_FIELD_ALREADY_SIGNED (409)', async (t) => {
  await t.rejects(signField(frozen, { fieldName: 'Certification', image, signer }), { code: 'ERR_FIELD_ALREADY_SIGNED', statusCode: 409 })
})

t.test('a field cannot be signed twice, and the refusal changes nothing', async (t) => {
  const once = await signField(frozen, { fieldName: 'only', image, signer })
  const copy = Buffer.from(once)
  await t.rejects(signField(once, { fieldName: 'only', image, signer }), { code: 'ERR_FIELD_ALREADY_SIGNED' })
  t.ok(Buffer.from(once).equals(copy), 'input untouched')
})

t.test('a document certified with P=1 (no changes) refuses another signature', async (t) => {
  // Built from the engine's own pieces: an empty field, then a P=1 certification around it.
  const doc = await PDFDocument.load(await makePdf())
  createSignatureField(doc, { name: 'late', page: doc.getPage(0), rect: { x: 20, y: 20, width: 100, height: 40 } })
  const withField = await doc.save({ useObjectStreams: false })
  const locked = await signDocument(withField, { stamps: [], signer: app, certify: { p: 1 } })
  await t.rejects(signField(locked, { fieldName: 'late', image, signer }), { code: 'ERR_PDF_NO_CHANGES_ALLOWED', statusCode: 409 })
})
