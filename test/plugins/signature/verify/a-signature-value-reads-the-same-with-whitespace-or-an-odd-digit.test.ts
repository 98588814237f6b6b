// The signature value is the hex string in the /ByteRange's gap. Plain hex is decoded as it is;
// the same value written with line breaks and spaces inside it, in upper case, or with an odd
// number of digits (the last one read as if followed by 0) must read as the same signature.
// Only the gap changes (it is not signed), so every signature's report stays the same.
import t from 'tap'
import { freezeDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testCertificateAuthority, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

let pdf = Buffer.from(await freezeDocument(await makePdf(), { fields: [{ name: 'a', page: 1, x: 40, y: 60, width: 200, height: 80 }], signer: testUserCertificate('App') }))
pdf = Buffer.from(await signField(pdf, { fieldName: 'a', image: makeStampPng(), signer: testUserCertificate('Alice') }))
const options = { trustAnchors: [testCertificateAuthority().certificatePem], now: new Date(Date.now() + 60_000).toISOString() }
const ranges = [...pdf.toString('latin1').matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)/g)].map((m) => [Number(m[2]), Number(m[3])] as const)

/** The file with the last signature's gap text rewritten to the same length. */
function withGap(rewrite: (hex: string) => string): Buffer {
  const [start, end] = ranges.at(-1)!
  const hex = pdf.toString('latin1', start + 1, end - 1)
  const text = rewrite(hex)
  if (text.length !== hex.length) throw new Error('the gap must keep its length')
  const copy = Buffer.from(pdf)
  copy.write(text, start + 1, 'latin1')
  return copy
}

const expected = JSON.stringify((await verifyPdf(pdf, options)).signatures)

t.test('the plain value verifies', async (t) => {
  t.match(JSON.parse(expected), [{ integrity: 'valid' }, { integrity: 'valid' }])
})

t.test('line breaks and spaces inside the DER (two padding digits fewer)', async (t) => {
  const spaced = withGap((hex) => `${hex.slice(0, 7)}\n${hex.slice(7, 20)} ${hex.slice(20, -2)}`)
  t.equal(JSON.stringify((await verifyPdf(spaced, options)).signatures), expected)
})

t.test('upper case', async (t) => {
  t.equal(JSON.stringify((await verifyPdf(withGap((hex) => hex.toUpperCase()), options)).signatures), expected)
})

t.test('an odd number of digits (one padding digit written as a space)', async (t) => {
  t.equal(JSON.stringify((await verifyPdf(withGap((hex) => `${hex.slice(0, -1)} `), options)).signatures), expected)
})
