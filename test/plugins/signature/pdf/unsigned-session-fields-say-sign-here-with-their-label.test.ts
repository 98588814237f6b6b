// Issue 21: an unsigned field of a session had an empty appearance (and mupdf draws a tiny red
// "SIGN" flag of its own over such fields). Now each says "Sign here: <slot label>" in its own
// appearance, read here by poppler, and is named so for assistive technology (/TU); signing
// replaces it, and every signature stays valid.
import { PDFDict, PDFHexString, PDFName, PDFString } from 'pdf-lib'
import t from 'tap'
import { freezeDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { loadPdf } from '../../../../plugins/signature/pdf/load-pdf.ts'
import { mupdfChangeHistory, pdfsig, popplerText } from '../../../fixtures/pdf/checkers.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const slots = [
  { name: 'tenant', label: 'Tenant', page: 1, x: 50, y: 50, width: 200, height: 70 },
  { name: 'landlord', label: 'Landlörd & Co', page: 1, x: 400, y: 80, width: 180, height: 60 },
]
const frozen = await freezeDocument(await makePdf(), { fields: slots, signer: testUserCertificate('Freezer App') })

const pageText = (bytes: Uint8Array) => popplerText(bytes)

async function accessibleNames(bytes: Uint8Array): Promise<Record<string, string>> {
  const doc = await loadPdf(bytes)
  const names: Record<string, string> = {}
  for (const ref of doc.getPages()[0]!.node.Annots()?.asArray() ?? []) {
    const widget = doc.context.lookup(ref, PDFDict)
    const tu = widget.lookupMaybe(PDFName.of('TU'), PDFString, PDFHexString)
    const name = widget.lookupMaybe(PDFName.of('T'), PDFString, PDFHexString)
    if (name && tu) names[name.decodeText()] = tu.decodeText()
  }
  return names
}

t.test('each unsigned field shows and is named "Sign here: <label>"', async (t) => {
  const text = await pageText(frozen)
  t.match(text, 'Sign here: Tenant')
  t.match(text, 'Sign here: Landlörd & Co', 'Latin-1 letters and XML-ish characters come through')
  t.same(await accessibleNames(frozen), { tenant: 'Sign here: Tenant', landlord: 'Sign here: Landlörd & Co' })
})

t.test('signing a field replaces its placeholder; every signature stays valid', async (t) => {
  const signed = await signField(frozen, { fieldName: 'tenant', image: makeStampPng(), signer: testUserCertificate('Tia Tenant'), reason: 'Signed' })
  const text = await pageText(signed)
  t.notMatch(text, 'Sign here: Tenant', 'the signed field shows the signature instead')
  t.match(text, 'Sign here: Landlörd & Co', 'the other one still waits')
  const { signatures, output } = await pdfsig(signed)
  t.equal(signatures.filter((s) => s.signed).length, 2, output)
  t.ok(signatures.filter((s) => s.signed).every((s) => s.validation === 'Signature is Valid.'), output)
  const { verdict, versions } = await mupdfChangeHistory(signed)
  t.equal(versions, 2)
  t.equal(verdict, 0, 'mupdf finds no change the certification forbids')
})
