// The signers of the peer rows, each used the way its project documents (or, for Documenso, the
// way Documenso's own local-certificate transport uses it). Every one makes one invisible
// PKCS#7 signature without DocMDP; ours adds a visible stamp and a DocMDP certification.
// Plain JavaScript: these packages live in bench/peers/node_modules, out of the app's typecheck.
import { signWithP12 } from '@documenso/pdf-sign'
import { PDF, P12Signer as LibPdfP12Signer } from '@libpdf/core'
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib'
import { P12Signer } from '@signpdf/signer-p12'
import { SignPdf } from '@signpdf/signpdf'
import forge from 'node-forge'
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFString } from 'pdf-lib'

const BYTE_RANGE_PLACEHOLDER = '**********'
const CONTENTS_BYTES = 8192

/**
 * Documenso: a pdf-lib placeholder (signature dictionary, an invisible widget on page 1, the
 * AcroForm with SigFlags 3, the whole file re-saved), the ByteRange patched in the bytes, then
 * @documenso/pdf-sign (Rust, napi) builds the CMS from the PKCS#12 on every call, as Documenso's
 * transport does.
 */
async function documensoPlaceholder(pdf) {
  const doc = await PDFDocument.load(pdf)
  const page = doc.getPages()[0]
  const byteRange = PDFArray.withContext(doc.context)
  byteRange.push(PDFNumber.of(0))
  for (let i = 0; i < 3; i++) byteRange.push(PDFName.of(BYTE_RANGE_PLACEHOLDER))
  const signature = doc.context.register(doc.context.obj({
    Type: 'Sig', Filter: 'Adobe.PPKLite', SubFilter: 'adbe.pkcs7.detached', ByteRange: byteRange,
    Contents: PDFHexString.of('0'.repeat(CONTENTS_BYTES * 2)), Reason: 'Signed by Documenso', M: PDFString.fromDate(new Date()),
  }))
  const appearance = doc.context.register(doc.context.formXObject([], { BBox: [0, 0, 0, 0], Resources: {} }))
  const widget = doc.context.register(doc.context.obj({
    Type: 'Annot', Subtype: 'Widget', FT: 'Sig', Rect: [0, 0, 0, 0], V: signature, T: PDFString.of('Signature1'), F: 4, P: page.ref, AP: { N: appearance },
  }))
  const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray)
  if (annots) annots.push(widget)
  else page.node.set(PDFName.of('Annots'), doc.context.obj([widget]))
  let form = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict)
  if (!form) {
    form = doc.context.obj({ Fields: [] })
    doc.catalog.set(PDFName.of('AcroForm'), doc.context.register(form))
  }
  const fields = form.lookupMaybe(PDFName.of('Fields'), PDFArray)
  if (fields) fields.push(widget)
  else form.set(PDFName.of('Fields'), doc.context.obj([widget]))
  form.set(PDFName.of('SigFlags'), PDFNumber.of(3))
  return Buffer.from(await doc.save({ useObjectStreams: false }))
}

/** Writes the real ByteRange over its placeholder (same length), as Documenso does. */
function patchByteRange(pdf) {
  const at = pdf.lastIndexOf('/ByteRange')
  const open = pdf.indexOf('[', at)
  const close = pdf.indexOf(']', at)
  const contents = pdf.indexOf('/Contents', close)
  const start = pdf.indexOf('<', contents)
  const end = pdf.indexOf('>', contents) + 1
  const range = [0, start, end, pdf.length - end]
  const text = `[${range.join(' ')}]`.padEnd(close + 1 - open, ' ')
  return { pdf: Buffer.concat([pdf.subarray(0, open), Buffer.from(text), pdf.subarray(close + 1)]), range }
}

/**
 * The same key and certificates in a PKCS#12 that @documenso/pdf-sign can open: its Rust parser
 * reads only the legacy 3DES encryption (the app's AES-256 container gets "No private key bags"),
 * which is what `openssl pkcs12 -legacy` and Documenso's example certificate use.
 */
function legacyP12(p12, password) {
  const parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(Buffer.from(p12).toString('binary')), password)
  const key = parsed.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag })[forge.pki.oids.pkcs8ShroudedKeyBag][0].key
  const certs = parsed.getBags({ bagType: forge.pki.oids.certBag })[forge.pki.oids.certBag].map((bag) => bag.cert)
  return Buffer.from(forge.asn1.toDer(forge.pkcs12.toPkcs12Asn1(key, certs, password, { algorithm: '3des' })).getBytes(), 'binary')
}

export function documenso(p12, password) {
  const cert = legacyP12(p12, password)
  return async (pdf) => {
    const { pdf: prepared, range } = patchByteRange(await documensoPlaceholder(pdf))
    const signed = Buffer.concat([prepared.subarray(0, range[1]), prepared.subarray(range[2])])
    const cms = signWithP12({ cert, content: signed, password })
    const hex = cms.toString('hex').padEnd(range[2] - range[1] - 2, '0')
    return Buffer.concat([prepared.subarray(0, range[1]), Buffer.from(`<${hex}>`), prepared.subarray(range[2])])
  }
}

/** @libpdf/core: load, sign (an incremental update), the identity opened once. */
export async function libpdf(p12, password) {
  const signer = await LibPdfP12Signer.create(p12, password)
  return async (pdf) => (await (await PDF.load(pdf)).sign({ signer })).bytes
}

/**
 * @signpdf: its pdf-lib placeholder, the file re-saved, then SignPdf with a P12Signer. A P12Signer
 * consumes its forge buffer on the first sign(), so each signature opens the PKCS#12 again.
 */
export function signpdf(p12, password) {
  const signPdf = new SignPdf()
  return async (pdf) => {
    const doc = await PDFDocument.load(pdf)
    pdflibAddPlaceholder({ pdfDoc: doc, reason: 'Benchmark', contactInfo: 'bench@example.org', name: 'Bench Signer', location: 'Bench', signatureLength: CONTENTS_BYTES })
    const prepared = Buffer.from(await doc.save({ useObjectStreams: false }))
    return signPdf.sign(prepared, new P12Signer(Buffer.from(p12), { passphrase: password }))
  }
}
