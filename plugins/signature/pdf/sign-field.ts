// One signer of a session fills their own pre-created signature field, as an incremental update
// appended after the existing bytes: the field gets its /V (the new signature) and its widget an
// appearance showing the stamp. Nothing else changes, so every earlier signature stays valid
// and the change is one the DocMDP certification allows.
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, type PDFDocument, type PDFObject } from 'pdf-lib'
import { appendIncrementalUpdate } from './append-incremental-update.ts'
import { buildSignatureDictionary } from './build-signature-dictionary.ts'
import { docMdpPermission } from './docmdp-permission.ts'
import { embedStampImage } from './embed-stamp-image.ts'
import { readFieldLock } from './field-lock.ts'
import { ERR_FIELD_ALREADY_SIGNED, ERR_FIELD_NOT_FOUND, ERR_PDF_NO_CHANGES_ALLOWED } from './errors.ts'
import { openForUpdate } from './open-for-update.ts'
import { listFields, type FieldNode } from './signature-fields.ts'
import { finishSignature } from './finish-signature.ts'
import { timestampSourceFor, type TimestampSource } from '../timestamps/timestamp-source.ts'
import { resolveSigner, type SignerInput } from './signer-input.ts'
import { appearanceDictionary, createStampAppearance } from './stamp-appearance.ts'
import { normalizeRect } from './stamp-geometry.ts'
import { pageFrame, type QuarterTurn } from './page-frame.ts'
import { fillTextField, textAppearance } from './text-field.ts'

export interface SignFieldOptions {
  fieldName: string
  /** PNG or JPEG bytes, scaled into the field's rectangle; or `typed`, the signer's name as typed. */
  image?: Uint8Array
  typed?: string
  /** Text fields of this signer filled in the same update (date signed, name, ...). */
  fill?: Array<{ name: string; value: string }>
  signer: SignerInput
  reason?: string
  name?: string
  location?: string
  signingTime?: Date
  /** RFC 3161 TSAs for the signature timestamp (B-T); null: none (B-B); absent: the worker's configured source. */
  timestamps?: TimestampSource | null
}

export async function signField(pdf: Uint8Array, options: SignFieldOptions): Promise<Uint8Array> {
  const signingTime = options.signingTime ?? new Date()
  const identity = resolveSigner(options.signer, signingTime)
  const { doc, previous, created } = await openForUpdate(pdf)
  if (docMdpPermission(doc) === 1) throw ERR_PDF_NO_CHANGES_ALLOWED()
  const field = findUnsignedSignatureField(doc, options.fieldName)

  const image = options.image ? await embedStampImage(doc, options.image) : null
  const filled: Array<[PDFRef, PDFObject]> = []
  for (const { name, value } of options.fill ?? []) {
    const text = listFields(doc).find((candidate) => candidate.name === name && !candidate.isSignature)
    if (!text) throw ERR_FIELD_NOT_FOUND(`The PDF has no text field named ${JSON.stringify(name)}`)
    filled.push(...fillTextField(doc.context, text, value, widgetRotation(doc, text.ref, text.dict)))
  }
  // A field locked at freeze time gets the FieldMDP reference its /Lock asks for.
  const signature = buildSignatureDictionary(doc.context, { ...options, identity, signingTime, lock: readFieldLock(field.dict) })
  field.dict.set(PDFName.of('V'), signature)
  const changed: Array<[PDFRef, PDFObject]> = [[field.ref, field.dict]]
  for (const widget of field.widgets) {
    const rect = normalizeRect(widget.dict.lookupMaybe(PDFName.of('Rect'), PDFArray)?.asArray().map(numberOf) ?? [])
    if (rect.width > 0 && rect.height > 0) {
      const rotation = widgetRotation(doc, widget.ref, widget.dict)
      const appearance = image ? createStampAppearance(doc.context, image, rect, rotation) : textAppearance(doc.context, rect, rotation, options.typed ?? options.name ?? '')
      widget.dict.set(PDFName.of('AP'), appearanceDictionary(doc.context, appearance))
    }
    if (widget.ref !== field.ref) changed.push([widget.ref, widget.dict])
  }
  return finishSignature({
    context: doc.context, signature, identity, timestamps: timestampSourceFor(options.timestamps),
    write: () => appendIncrementalUpdate(pdf, { objects: [...changed, ...filled, ...created()], previous, context: doc.context }),
  })
}

function findUnsignedSignatureField(doc: PDFDocument, name: string): FieldNode {
  const field = listFields(doc).find((candidate) => candidate.name === name)
  if (!field || !field.isSignature) throw ERR_FIELD_NOT_FOUND(`The PDF has no signature field named ${JSON.stringify(name)}`)
  if (field.isSigned) throw ERR_FIELD_ALREADY_SIGNED(`The signature field ${JSON.stringify(name)} is already signed`)
  return field
}

/** The /Rotate of the page a widget sits on (its /P, else the page listing it in /Annots): its stamp must turn back by as much. */
function widgetRotation(doc: PDFDocument, ref: PDFRef, dict: PDFDict): QuarterTurn {
  const parent = dict.get(PDFName.of('P'))
  const page = doc.getPages().find((candidate) => (parent instanceof PDFRef
    ? candidate.ref === parent
    : Boolean(candidate.node.Annots()?.asArray().some((annot) => annot === ref))))
  return page ? pageFrame(page).rotate : 0
}

function numberOf(value: unknown): number {
  return value instanceof PDFNumber ? value.asNumber() : NaN
}
