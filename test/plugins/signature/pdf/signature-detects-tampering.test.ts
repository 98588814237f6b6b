import t from 'tap'
import { signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const signed = Buffer.from(
  await signDocument(await makePdf(), {
    stamps: [{ page: 1, x: 100, y: 100, width: 150, height: 60, image: makeStampPng() }],
    signer: testUserCertificate('Tamper Test'),
    certify: {},
  }),
)
const byteRange = /\/ByteRange \[ (\d+) (\d+) (\d+) (\d+)/.exec(signed.toString('latin1'))!.slice(1).map(Number)

function flipped(at: number): Buffer {
  const copy = Buffer.from(signed)
  copy[at] = copy[at]! ^ 0x01
  return copy
}

t.test('the untouched file is valid (control)', async (t) => {
  t.equal((await pdfsig(signed)).signatures[0]?.validation, 'Signature is Valid.')
})

t.test('one flipped byte in the first signed range is reported', async (t) => {
  // A digit of the document's /CreationDate: the file still parses, only its content differs.
  const at = signed.indexOf('/CreationDate (D:') + 20
  t.ok(at > 20 && at < byteRange[1]!, 'the string lies in the first range')
  const { signatures } = await pdfsig(flipped(at))
  t.equal(signatures.length, 1, 'one signature')
  t.not(signatures[0]!.validation, 'Signature is Valid.')
  t.match(signatures[0]!.validation, /Digest Mismatch/)
})

t.test('one flipped byte in the second signed range is reported', async (t) => {
  // A digit of the signing time (/M) written after /Contents.
  const at = signed.indexOf('/M (D:', byteRange[2]!) + 8
  t.ok(at > byteRange[2]!, 'the date lies in the second range')
  const { signatures } = await pdfsig(flipped(at))
  t.match(signatures[0]!.validation, /Digest Mismatch/)
})
