// Universal Signature Forgery and Signature Wrapping (PDF-Insecurity): a signature dictionary
// whose /ByteRange is missing, null, all zeros or moved so that its gap holds more than the
// signature value. Each one is still a signature the document claims to carry: it is listed,
// called invalid, and the document is not valid. pdfsig lists every one as well and validates
// none; mutool (not installed here) does the same per the audit.
import t from 'tap'
import { verifyWithTestCa } from '../../../fixtures/pdf/verify-with-test-ca.ts'
import { signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testCertificateAuthority, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const verify = verifyWithTestCa
const signed = Buffer.from(await signDocument(await makePdf(), { stamps: [{ page: 1, x: 40, y: 60, width: 210, height: 90, image: makeStampPng() }], signer: testUserCertificate('Chen Wei') }))

/** The signed file with its /ByteRange entry rewritten in place (same length: every offset stays true). */
function withByteRange(replacement: (numbers: number[]) => string): Buffer {
  const text = signed.toString('latin1')
  const at = text.indexOf('/ByteRange')
  const end = text.indexOf(']', at) + 1
  const numbers = text.slice(at, end).match(/\d+/g)!.map(Number)
  const copy = Buffer.from(signed)
  const value = replacement(numbers)
  if (value.length > end - at) throw new Error('replacement too long')
  copy.write(value.padEnd(end - at, ' '), at, 'latin1')
  return copy
}

const cases: Array<[string, Buffer, RegExp]> = [
  ['/ByteRange missing', withByteRange(() => ''), /ByteRange is missing/],
  ['/ByteRange null', withByteRange(() => '/ByteRange null'), /ByteRange is missing/],
  ['/ByteRange [0 0 0 0]', withByteRange(() => '/ByteRange [0 0 0 0]'), /points outside the file|not four/],
  // Wrapping: the first range ends early, so the unsigned gap swallows part of the dictionary.
  ['/ByteRange moved', withByteRange(([, a, b, c]) => `/ByteRange [0 ${a! - 100} ${b} ${c}]`), /gap/],
]

t.test('a signature whose /ByteRange is broken is listed and invalid, as pdfsig lists it', async (t) => {
  t.equal((await verify(signed)).verdict, 'valid', 'the untouched file is valid')
  for (const [name, pdf, problem] of cases) {
    const report = await verify(pdf)
    t.equal(report.verdict, 'invalid', `${name}: ${report.summary}`)
    t.equal(report.signatures.length, 1, `${name}: the signature is listed`)
    const [signature] = report.signatures
    t.match(signature, { field: 'Signature', integrity: 'invalid', verdict: 'invalid' }, name)
    t.match(signature?.problems.join(' ') ?? '(not listed)', problem, name)
    t.match(report.summary, /1 of 1 signature is not valid/, name)
    t.notMatch(report.summary, /carries no signature/, name)
    const checked = await pdfsig(pdf)
    t.equal(checked.signatures.length, 1, `${name}: pdfsig lists it too`)
    t.notOk(checked.signatures[0]!.valid, `${name}: pdfsig says "${checked.signatures[0]!.validation}"`)
  }
})
