// One signer, one signature, in a single full rewrite of a document nobody has signed yet:
// the stamps are drawn into the pages and the signature may certify the result (DocMDP).
import { concatTransformationMatrix, drawObject, popGraphicsState, pushGraphicsState, type PDFDocument } from 'pdf-lib'
import { assertOnPage } from './box-on-page.ts'
import { buildSignatureDictionary, type DocMdpPermission } from './build-signature-dictionary.ts'
import { createSignatureField, setDocMdpPermissions } from './create-signature-field.ts'
import { reserveDssSlot } from '../ltv/reserve-dss-slot.ts'
import { embedStampImage } from './embed-stamp-image.ts'
import { loadForRewrite, saveNormalized } from './normalize-pdf.ts'
import { pageAt } from './page-lookup.ts'
import { finishSignature, versionSeed } from './finish-signature.ts'
import { timestampSourceFor, type TimestampSource } from '../timestamps/timestamp-source.ts'
import { resolveSigner, type SignerInput } from './signer-input.ts'
import { fitImageInBox, type Box } from './stamp-geometry.ts'
import { pageFrame, uprightImageMatrix } from './page-frame.ts'
import { uniqueFieldName } from './field-names.ts'

/** A box in points on the page as displayed (page-frame.ts), and the image drawn upright into it. */
export interface Stamp extends Box {
  /** 1-based page number. */
  page: number
  /** PNG or JPEG bytes. */
  image: Uint8Array
}

export interface SignDocumentOptions {
  stamps: Stamp[]
  signer: SignerInput
  reason?: string
  name?: string
  location?: string
  /** Certify the document; P defaults to 2 (only form filling and signing may follow). */
  certify?: { p?: DocMdpPermission }
  signingTime?: Date
  /** RFC 3161 TSAs for the signature timestamp (B-T); null: none (B-B); absent: the worker's configured source. */
  timestamps?: TimestampSource | null
}

export async function signDocument(pdf: Uint8Array, options: SignDocumentOptions): Promise<Uint8Array> {
  const signingTime = options.signingTime ?? new Date()
  const identity = resolveSigner(options.signer, signingTime)
  const doc = await loadForRewrite(pdf)
  const frames = doc.getPages().map(pageFrame)
  options.stamps.forEach((stamp, i) => {
    pageAt(doc, stamp.page) // a page the PDF lacks is ERR_PAGE_OUT_OF_RANGE, as before
    assertOnPage(stamp, frames, `stamp ${i + 1}`)
  })
  await drawStamps(doc, options.stamps)
  const certify = options.certify ? { p: options.certify.p ?? 2 } : undefined
  // Before the objects below, so the reserved number is a gap, not the trailer's highest.
  if (certify && certify.p !== 1) reserveDssSlot(doc)
  const signature = buildSignatureDictionary(doc.context, { ...options, identity, signingTime, certify })
  const firstStampPage = pageAt(doc, options.stamps[0]?.page ?? 1)
  createSignatureField(doc, { name: uniqueFieldName(doc, 'Signature'), page: firstStampPage, value: signature })
  if (certify) setDocMdpPermissions(doc, signature)
  return finishSignature({ context: doc.context, signature, identity, timestamps: timestampSourceFor(options.timestamps), write: () => saveNormalized(doc, versionSeed(pdf, identity, signingTime)) })
}

async function drawStamps(doc: PDFDocument, stamps: Stamp[]): Promise<void> {
  for (const stamp of stamps) {
    const page = pageAt(doc, stamp.page)
    const image = await embedStampImage(doc, stamp.image)
    // The image is fitted in displayed space, then one matrix takes it to user space, turned
    // against /Rotate so it reads upright.
    const matrix = uprightImageMatrix(pageFrame(page), fitImageInBox(image, stamp))
    const name = page.node.newXObject('Stamp', image.ref)
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...matrix), drawObject(name), popGraphicsState())
  }
}
