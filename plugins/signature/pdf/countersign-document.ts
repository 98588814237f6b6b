// A further signature on a document that is already signed (an upload signed elsewhere, or by
// this app): a new signature field with the stamp as its widget, appended as an incremental
// update, so every byte the earlier signatures cover stays as it is and they stay valid. Only a
// certification that allows no change at all (DocMDP P=1) refuses it. The stamp can't also be
// drawn elsewhere: page content added after a signature is a forbidden change, and poppler reads a
// signature field with several widgets as several unsigned fields, so it is one placement.
import { appendIncrementalUpdate } from './append-incremental-update.ts'
import { buildSignatureDictionary } from './build-signature-dictionary.ts'
import { createSignatureField } from './create-signature-field.ts'
import { docMdpPermission } from './docmdp-permission.ts'
import { ERR_COUNTERSIGN_ONE_PLACEMENT, ERR_PDF_NO_CHANGES_ALLOWED } from './errors.ts'
import { ownFieldLock } from './field-lock.ts'
import { uniqueFieldName } from './field-names.ts'
import { finishSignature } from './finish-signature.ts'
import { objectsASignatureTouches } from './objects-a-signature-touches.ts'
import { openForUpdate } from './open-for-update.ts'
import { changedSince, snapshot } from './changed-objects.ts'
import { resolveSigner } from './signer-input.ts'
import type { SignDocumentOptions } from './sign-document.ts'
import { assertStampsOnPages, stampWidget } from './stamp-widgets.ts'
import { timestampSourceFor } from '../timestamps/timestamp-source.ts'

/** As signDocument, without certify: only the first signature of a document may certify it. */
export type CountersignOptions = Omit<SignDocumentOptions, 'certify'>

export async function countersignDocument(pdf: Uint8Array, options: CountersignOptions): Promise<Uint8Array> {
  const signingTime = options.signingTime ?? new Date()
  const identity = resolveSigner(options.signer, signingTime)
  if (options.stamps.length !== 1) throw ERR_COUNTERSIGN_ONE_PLACEMENT(`${options.stamps.length} placements were sent`)
  const { doc, previous, created } = await openForUpdate(pdf)
  if (docMdpPermission(doc) === 1) throw ERR_PDF_NO_CHANGES_ALLOWED()

  const before = snapshot(doc.context, objectsASignatureTouches(doc, previous.root))
  assertStampsOnPages(doc, options.stamps)
  const widget = await stampWidget(doc, options.stamps[0]!)
  const name = uniqueFieldName(doc, 'Signature')
  const lock = ownFieldLock(name)
  const signature = buildSignatureDictionary(doc.context, { ...options, identity, signingTime, lock })
  createSignatureField(doc, { ...widget, name, value: signature, lock })

  const changed = changedSince(doc.context, before)
  return finishSignature({
    context: doc.context, signature, identity, timestamps: timestampSourceFor(options.timestamps),
    write: () => appendIncrementalUpdate(pdf, { objects: [...changed, ...created()], previous, context: doc.context }),
  })
}
