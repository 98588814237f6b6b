import t from 'tap'
import { inspectPdf, normalizePdf, signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const modern = Buffer.from(await makePdf({ pages: 5, objectStreams: true }))
const latin = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1')

t.test('the input really uses a cross-reference stream and object streams (control)', async (t) => {
  t.match(latin(modern), /\/Type \/XRef/)
  t.match(latin(modern), /\/Type \/ObjStm/)
})

t.test('the output has a classic xref table, no object streams, and the same pages', async (t) => {
  const normalized = await normalizePdf(modern)
  const text = latin(normalized)
  t.notMatch(text, /\/Type \/XRef/)
  t.notMatch(text, /\/Type \/ObjStm/)
  const startxref = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)?.[1])
  t.equal(text.slice(startxref, startxref + 4), 'xref', 'startxref points at a classic table')
  const [before, after] = await Promise.all([inspectPdf(modern), inspectPdf(normalized)])
  t.equal(after.pageCount, 5)
  t.same(after.pages, before.pages)
  const qpdf = await qpdfCheck(normalized)
  t.ok(qpdf.clean, qpdf.output)
})

t.test('a document arriving with a cross-reference stream signs validly', async (t) => {
  const signed = await signDocument(modern, {
    stamps: [{ page: 5, x: 40, y: 40, width: 150, height: 60, image: makeStampPng() }],
    signer: testUserCertificate('Xref Stream Signer'),
    certify: {},
  })
  const [signature] = (await pdfsig(signed)).signatures
  t.equal(signature?.validation, 'Signature is Valid.')
  t.ok(signature?.totalDocumentSigned)
})
