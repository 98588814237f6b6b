// Prepares a document for a signing session: one full rewrite that creates an empty signature
// field for every slot and certifies that revision with DocMDP P=2. Later signers then only
// fill their own pre-created field, which is a change P=2 allows, so every signature stays valid.
import { assertOnPage } from './box-on-page.ts'
import { buildSignatureDictionary } from './build-signature-dictionary.ts'
import { createSignatureField, setDocMdpPermissions } from './create-signature-field.ts'
import { reserveDssSlot } from './reserve-dss-slot.ts'
import { ERR_FIELD_INVALID } from './errors.ts'
import { ownFieldLock } from './field-lock.ts'
import { uniqueFieldName } from './field-names.ts'
import { loadForRewrite, saveNormalized } from './normalize-pdf.ts'
import { pageAt } from './page-lookup.ts'
import { listFields } from './signature-fields.ts'
import { finishSignature, versionSeed } from './finish-signature.ts'
import { timestampSourceFor, type TimestampSource } from '../timestamps/timestamp-source.ts'
import { resolveSigner, type SignerInput } from './signer-input.ts'
import type { Box } from './stamp-geometry.ts'
import { pageFrame, toUserSpace } from './page-frame.ts'
import { createTextField } from './text-field.ts'

/** A field's box in points on the page as displayed (page-frame.ts); its /Rect is converted here. */
export interface SignatureSlot extends Box {
  /** Becomes the field's /T; signField finds the field by it. */
  name: string
  /** 1-based page number. */
  page: number
  /** Who signs here, as people read it ("Employee"): the unsigned field says "Sign here: <label>". */
  label?: string
  /** Further fields this slot's signature freezes with its own (its signer's date, name, ... fields). */
  locks?: string[]
}

/** A form field (date signed, name, initials, text) created empty in the certified revision. */
export interface FormFieldSlot extends Box {
  name: string
  page: number
  /** What the empty field shows ("Date signed"). */
  label: string
}

export interface FreezeDocumentOptions {
  fields: SignatureSlot[]
  /** Text fields filled later by their signer's update (text-field.ts). */
  formFields?: FormFieldSlot[]
  /** The application's own certificate: it certifies the frozen revision. */
  signer: SignerInput
  reason?: string
  name?: string
  /** 3 also allows annotations (comments) after certification. */
  permission?: 2 | 3
  signingTime?: Date
  /** RFC 3161 TSAs for the signature timestamp (B-T); null: none (B-B); absent: the worker's configured source. */
  timestamps?: TimestampSource | null
}

export async function freezeDocument(pdf: Uint8Array, options: FreezeDocumentOptions): Promise<Uint8Array> {
  const signingTime = options.signingTime ?? new Date()
  const identity = resolveSigner(options.signer, signingTime)
  const doc = await loadForRewrite(pdf)
  const formFields = options.formFields ?? []
  assertSlotsValid([...options.fields, ...formFields], new Set(listFields(doc).map((field) => field.name)))
  const frames = doc.getPages().map(pageFrame)
  // Before the objects below, so the reserved number is a gap, not the trailer's highest.
  reserveDssSlot(doc)
  for (const slot of options.fields) {
    const page = pageAt(doc, slot.page)
    assertOnPage(slot, frames, `field ${JSON.stringify(slot.name)}`)
    // Locked in the certified revision: whoever signs the slot freezes it (field-lock.ts).
    createSignatureField(doc, { name: slot.name, page, rect: toUserSpace(pageFrame(page), slot), lock: { ...ownFieldLock(slot.name), fields: [slot.name, ...(slot.locks ?? [])] }, placeholder: slot.label ?? slot.name })
  }
  for (const slot of formFields) {
    const page = pageAt(doc, slot.page)
    assertOnPage(slot, frames, `field ${JSON.stringify(slot.name)}`)
    const frame = pageFrame(page)
    createTextField(doc, { name: slot.name, page, rect: toUserSpace(frame, slot), rotate: frame.rotate, label: slot.label })
  }
  const certify = { p: options.permission ?? 2 }
  const signature = buildSignatureDictionary(doc.context, {
    identity,
    signingTime,
    certify,
    reason: options.reason ?? 'Certified for signing',
    name: options.name,
  })
  const certificationName = uniqueFieldName(doc, 'Certification')
  createSignatureField(doc, { name: certificationName, page: pageAt(doc, 1), value: signature })
  setDocMdpPermissions(doc, signature)
  return finishSignature({ context: doc.context, signature, identity, timestamps: timestampSourceFor(options.timestamps), write: () => saveNormalized(doc, versionSeed(pdf, identity, signingTime)) })
}

function assertSlotsValid(slots: Array<SignatureSlot | FormFieldSlot>, existing: Set<string>): void {
  const seen = new Set<string>()
  for (const slot of slots) {
    if (!slot.name || slot.name.includes('.')) {
      // A dot would make the name a path in the field hierarchy (PDF 32000-1, 12.7.3.2).
      throw ERR_FIELD_INVALID(`Field name ${JSON.stringify(slot.name)} must be non-empty and contain no dot`)
    }
    if (seen.has(slot.name) || existing.has(slot.name)) throw ERR_FIELD_INVALID(`Field name ${JSON.stringify(slot.name)} is used twice`)
    seen.add(slot.name)
    const sizes = [slot.x, slot.y, slot.width, slot.height]
    if (!sizes.every(Number.isFinite) || slot.width <= 0 || slot.height <= 0) {
      throw ERR_FIELD_INVALID(`Field ${JSON.stringify(slot.name)} needs a finite position and a positive width and height`)
    }
  }
}
