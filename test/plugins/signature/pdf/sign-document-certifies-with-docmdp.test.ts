import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRef } from 'pdf-lib'
import t from 'tap'
import { signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { inkShare, mupdfChangeHistory, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const signer = testUserCertificate('Single Signer')
const box = { x: 300, y: 200, width: 200, height: 80 }
const signed = await signDocument(await makePdf(), {
  stamps: [{ page: 1, ...box, image: makeStampPng() }],
  signer,
  reason: 'Agreed',
  certify: {},
})

/** Reads DocMDP back with pdf-lib's plain object API, independent of the engine's own helpers. */
async function docMdpOf(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false })
  const permsRef = doc.catalog.lookupMaybe(PDFName.of('Perms'), PDFDict)?.get(PDFName.of('DocMDP'))
  const signature = permsRef instanceof PDFRef ? doc.context.lookup(permsRef, PDFDict) : undefined
  const reference = signature?.lookupMaybe(PDFName.of('Reference'), PDFArray)?.lookup(0, PDFDict)
  const params = reference?.lookupMaybe(PDFName.of('TransformParams'), PDFDict)
  return {
    permsRef,
    transformMethod: reference?.lookupMaybe(PDFName.of('TransformMethod'), PDFName)?.asString(),
    p: params?.lookupMaybe(PDFName.of('P'), PDFNumber)?.asNumber(),
    v: params?.lookupMaybe(PDFName.of('V'), PDFName)?.asString(),
    subFilter: signature?.lookupMaybe(PDFName.of('SubFilter'), PDFName)?.asString(),
  }
}

t.test('pdfsig: one valid signature covering the whole document, by the signer', async (t) => {
  const { signatures, output } = await pdfsig(signed)
  t.equal(signatures.length, 1, 'one signature')
  t.equal(signatures[0]!.validation, 'Signature is Valid.')
  t.ok(signatures[0]!.totalDocumentSigned, 'Total document signed')
  t.equal(signatures[0]!.commonName, 'Single Signer')
  t.match(output, /Signing Hash Algorithm: SHA-256/)
})

t.test('the catalog carries /Perms /DocMDP pointing at a signature with /Reference DocMDP P 2', async (t) => {
  const mdp = await docMdpOf(signed)
  t.ok(mdp.permsRef instanceof PDFRef, 'catalog /Perms /DocMDP is a reference to the signature dictionary')
  t.equal(mdp.transformMethod, '/DocMDP')
  t.equal(mdp.p, 2, 'P defaults to 2')
  t.equal(mdp.v, '/1.2')
  t.equal(mdp.subFilter, '/ETSI.CAdES.detached')
})

t.test('certify.p is honoured and no certify means no /Perms', async (t) => {
  const image = makeStampPng()
  const p3 = await signDocument(await makePdf(), { stamps: [{ page: 1, ...box, image }], signer, certify: { p: 3 } })
  t.equal((await docMdpOf(p3)).p, 3)
  const plain = await signDocument(await makePdf(), { stamps: [{ page: 1, ...box, image }], signer })
  t.equal((await docMdpOf(plain)).permsRef, undefined)
  t.equal((await pdfsig(plain)).signatures[0]?.validation, 'Signature is Valid.')
})

t.test('qpdf --check is clean and mupdf finds no forbidden change', async (t) => {
  const qpdf = await qpdfCheck(signed)
  t.ok(qpdf.clean, qpdf.output)
  t.equal((await mupdfChangeHistory(signed)).verdict, 0)
})

t.test('the stamp is drawn inside its box and nowhere else', async (t) => {
  const [inside, beside] = await inkShare(signed, 1, [box, { ...box, x: box.x + box.width + 20 }])
  t.ok(inside! > 0.5, `ink in the stamp box: ${inside}`)
  t.equal(beside, 0, 'the neighbouring box stays white')
})
