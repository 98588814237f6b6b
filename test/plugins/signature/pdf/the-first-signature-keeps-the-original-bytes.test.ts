// Issue 40 item 8: one signature rewrote the whole file (a 1000-page 285 KB input became 532 KB,
// and its bytes were no longer the ones its owner had). The first signature is now an incremental
// update of the original bytes: the input is a prefix of the output, which grows by the signature
// alone, whether the file ends in a cross-reference table or a stream. A file whose own
// cross-reference offsets miss their objects is rewritten whole (repaired), as before. Each
// result is checked by pdfsig, qpdf and mupdf.
import t from 'tap'
import { signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { mupdfChangeHistory, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const signer = testUserCertificate('Original Bytes')
const stamp = { page: 1, x: 300, y: 200, width: 200, height: 80, image: makeStampPng() }

async function checked(t: any, signed: Uint8Array, what: string) {
  const { signatures, output } = await pdfsig(signed)
  t.equal(signatures[0]?.validation, 'Signature is Valid.', `${what}: pdfsig ${output.slice(0, 300)}`)
  t.ok(signatures[0]?.totalDocumentSigned, `${what}: the signature covers the whole file`)
  t.ok((await qpdfCheck(signed)).clean, `${what}: qpdf finds nothing wrong`)
  t.equal((await mupdfChangeHistory(signed)).verdict, 0, `${what}: mupdf finds no forbidden change`)
}

const isPrefix = (input: Uint8Array, output: Uint8Array) => Buffer.from(output.subarray(0, input.length)).equals(Buffer.from(input))

t.test('a 1000-page document: the original bytes, then the signature', async (t) => {
  const input = await makePdf({ pages: 1000 })
  const signed = await signDocument(input, { stamps: [stamp], signer, certify: {} })
  t.ok(isPrefix(input, signed), 'the input is a prefix of the output')
  const growth = signed.length - input.length
  t.ok(growth < 64 * 1024, `it grows by the signature, stamp and new objects only: +${growth} bytes on ${input.length}`)
  await checked(t, signed, '1000 pages, certified')
})

t.test('a file that ends in a cross-reference stream, several stamps, an approval signature', async (t) => {
  const input = await makePdf({ pages: 3, objectStreams: true })
  const signed = await signDocument(input, { stamps: [stamp, { ...stamp, page: 2 }, { ...stamp, page: 3, y: 400 }], signer })
  t.ok(isPrefix(input, signed), 'the input is a prefix of the output')
  t.match(Buffer.from(signed.subarray(input.length)).toString('latin1'), /\/Type \/XRef/, 'the update continues with a cross-reference stream')
  await checked(t, signed, 'xref stream, three stamps')
})

t.test('a file whose table offsets miss their objects is rewritten whole, and signs', async (t) => {
  const input = Buffer.from(await makePdf({ pages: 2 }))
  // Twelve bytes inside the first object's dictionary shift every later object off its offset.
  const at = input.indexOf('<<') + 2
  const damaged = Buffer.concat([input.subarray(0, at), Buffer.from(' /Pad 123456'), input.subarray(at)])
  const signed = await signDocument(damaged, { stamps: [stamp], signer, certify: {} })
  t.notOk(isPrefix(damaged, signed), 'not an update of bytes readers would each repair their own way')
  await checked(t, signed, 'repaired by the rewrite')
})
