// A signature field merged with its widget annotation, registered on its page and in the form.
import { PDFDict, PDFHexString, PDFName, PDFNumber, type PDFDocument, type PDFPage, type PDFRef } from 'pdf-lib'
import { placeholderAppearance, placeholderText } from './field-placeholder-appearance.ts'
import type { Box } from './stamp-geometry.ts'

// Annotation flags: Print (4) so the stamp prints, Locked (128) so viewers do not move it.
const PRINT_AND_LOCKED = 4 | 128
// SignaturesExist (1) | AppendOnly (2): tells viewers to save this file incrementally.
const SIG_FLAGS = 3

export interface SignatureFieldOptions {
  name: string
  page: PDFPage
  /** Omit for an invisible signature (a zero-size widget, as PDF 32000-1 12.7.4.5 allows). */
  rect?: Box
  value?: PDFRef
  /** A field waiting for its signer: shows and is named "Sign here: <placeholder>" until signed. */
  placeholder?: string
}

export function createSignatureField(doc: PDFDocument, options: SignatureFieldOptions): PDFRef {
  const { context } = doc
  const { x = 0, y = 0, width = 0, height = 0 } = options.rect ?? {}
  const field = context.obj({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    Rect: [x, y, x + width, y + height].map((n) => PDFNumber.of(round(n))),
    F: PRINT_AND_LOCKED,
    P: options.page.ref,
  }) as PDFDict
  // Hex text strings carry any Unicode name without escaping rules to get wrong.
  field.set(PDFName.of('T'), PDFHexString.fromText(options.name))
  if (options.value) field.set(PDFName.of('V'), options.value)
  if (width > 0 && height > 0) {
    // An explicit appearance: without one, each viewer invents its own look for an unsigned field
    // (mupdf a small red "SIGN" flag), so the frozen document would not look the same everywhere.
    const appearance = options.placeholder === undefined
      ? context.register(context.stream('', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, round(width), round(height)] }))
      : placeholderAppearance(context, round(width), round(height), options.placeholder)
    field.set(PDFName.of('AP'), context.obj({ N: appearance }))
  }
  // The field's accessible name (PDF 32000-1, 12.7.3.1 /TU): what a screen reader announces.
  if (options.placeholder !== undefined) field.set(PDFName.of('TU'), PDFHexString.fromText(placeholderText(options.placeholder)))
  const ref = context.register(field)
  options.page.node.addAnnot(ref)
  const acroForm = doc.catalog.getOrCreateAcroForm()
  acroForm.addField(ref)
  acroForm.dict.set(PDFName.of('SigFlags'), PDFNumber.of(SIG_FLAGS))
  return ref
}

/** Marks the document as certified by this signature (PDF 32000-1, 12.8.4: catalog /Perms). */
export function setDocMdpPermissions(doc: PDFDocument, signature: PDFRef): void {
  const perms = doc.catalog.lookupMaybe(PDFName.of('Perms'), PDFDict) ?? doc.context.obj({})
  perms.set(PDFName.of('DocMDP'), signature)
  doc.catalog.set(PDFName.of('Perms'), perms)
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000
}
