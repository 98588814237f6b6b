// One signer, one signature on a document nobody has signed yet, appended to its original bytes
// as an incremental update (a damaged file is rewritten whole instead). The first stamp is the signature field's widget (stamp-widgets.ts), as a session signer's is; any
// further stamps of the same signature are drawn into the pages, which this signature covers.
// The signature may certify the result (DocMDP). A document that is already signed is signed by
// countersignDocument instead.
import { concatTransformationMatrix, drawObject, popGraphicsState, pushGraphicsState, type PDFDocument, type PDFPage } from 'pdf-lib'
import { buildSignatureDictionary, type DocMdpPermission } from './build-signature-dictionary.ts'
import { createSignatureField, setDocMdpPermissions } from './create-signature-field.ts'
import { reserveDssSlot } from './reserve-dss-slot.ts'
import { embedStampImage, type StampImage } from './embed-stamp-image.ts'
import { saveNormalized } from './normalize-pdf.ts'
import { openIfUpdatable } from './open-for-update.ts'
import { appendIncrementalUpdate } from './append-incremental-update.ts'
import { changedSince, snapshot } from './changed-objects.ts'
import { objectsASignatureTouches } from './objects-a-signature-touches.ts'
import { findSignedFields } from './signature-fields.ts'
import { ERR_PDF_ALREADY_SIGNED } from './errors.ts'
import { pageAt } from './page-lookup.ts'
import { finishSignature, versionSeed } from './finish-signature.ts'
import { timestampSourceFor, type TimestampSource } from '../timestamps/timestamp-source.ts'
import { resolveSigner, type SignerInput } from './signer-input.ts'
import { fitImageInBox, type Box } from './stamp-geometry.ts'
import { pageFrame, uprightImageMatrix } from './page-frame.ts'
import { uniqueFieldName } from './field-names.ts'
import { ownFieldLock } from './field-lock.ts'
import { assertStampsOnPages, stampWidget, type Stamp } from './stamp-widgets.ts'

export type { Stamp } from './stamp-widgets.ts'

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
  const { doc, opened } = await openIfUpdatable(pdf)
  if (findSignedFields(doc).length > 0) throw ERR_PDF_ALREADY_SIGNED()
  const before = opened && snapshot(doc.context, objectsASignatureTouches(doc, opened.previous.root))
  assertStampsOnPages(doc, options.stamps)
  const [first, ...more] = options.stamps
  const image = first ? await embedStampImage(doc, first.image) : undefined
  await drawStamps(doc, more, first && image ? new Map([[first.image, image]]) : new Map())
  const certify = options.certify ? { p: options.certify.p ?? 2 } : undefined
  // Before the objects below, so the reserved number is a gap, not the trailer's highest.
  if (certify && certify.p !== 1) reserveDssSlot(doc)
  const name = uniqueFieldName(doc, 'Signature')
  // A certification governs the whole document through DocMDP; an approval signature locks its own field.
  const lock = certify ? undefined : ownFieldLock(name)
  const signature = buildSignatureDictionary(doc.context, { ...options, identity, signingTime, certify, lock })
  const widget = first ? await stampWidget(doc, first, image) : { page: pageAt(doc, 1) }
  createSignatureField(doc, { ...widget, name, value: signature, lock })
  if (certify) setDocMdpPermissions(doc, signature)
  // The original bytes stay, the signature appended as an update of them; a file whose own
  // cross-reference data cannot be trusted is rewritten whole instead (normalize-pdf.ts).
  const write = opened && before
    ? () => appendIncrementalUpdate(pdf, { objects: [...changedSince(doc.context, before), ...opened.created()], previous: opened.previous, context: doc.context })
    : () => saveNormalized(doc, versionSeed(pdf, identity, signingTime))
  return finishSignature({ context: doc.context, signature, identity, timestamps: timestampSourceFor(options.timestamps), write })
}

async function drawStamps(doc: PDFDocument, stamps: Stamp[], embedded: Map<Uint8Array, StampImage>): Promise<void> {
  for (const stamp of stamps) {
    const page = pageAt(doc, stamp.page)
    // The same image bytes (one signature's stamp in several places) are embedded once.
    if (!embedded.has(stamp.image)) embedded.set(stamp.image, await embedStampImage(doc, stamp.image))
    drawStampImage(page, embedded.get(stamp.image)!, stamp)
  }
}

/** Draws an embedded stamp into page content, fitted in `box` (points on the page as displayed). */
export function drawStampImage(page: PDFPage, image: StampImage, box: Box): void {
  // The image is fitted in displayed space, then one matrix takes it to user space, turned
  // against /Rotate so it reads upright.
  const matrix = uprightImageMatrix(pageFrame(page), fitImageInBox(image, box))
  const name = page.node.newXObject('Stamp', image.ref)
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...matrix), drawObject(name), popGraphicsState())
}
