// A signature field merged with its widget annotation, registered on its page and in the form.
// One widget per signature: poppler (pdfsig) reads a signature field whose /Kids are several
// widgets as that many unsigned fields, so a signature is shown in one place.
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, type PDFDocument, type PDFPage, type PDFRef } from 'pdf-lib'
import { fieldLockParams, type FieldLock } from './field-lock.ts'
import { placeholderAppearance, placeholderText } from './field-placeholder-appearance.ts'
import type { Box } from './stamp-geometry.ts'

// Annotation flags: Print (4) so the stamp prints, Locked (128) so viewers do not move it.
const PRINT_AND_LOCKED = 4 | 128
// SignaturesExist (1) | AppendOnly (2): tells viewers to save this file incrementally.
const SIG_FLAGS = 3

export interface SignatureWidget {
  page: PDFPage
  /** In the page's user space; omit for an invisible signature (a zero-size widget, as PDF 32000-1 12.7.4.5 allows). */
  rect?: Box
  /** The normal appearance (a stamp); a visible widget without one gets an explicit empty one. */
  appearance?: PDFRef
}

export interface SignatureFieldOptions extends SignatureWidget {
  name: string
  value?: PDFRef
  /** Fields the signature of this field will lock (field-lock.ts). */
  lock?: FieldLock
  /** A field waiting for its signer: shows and is named "Sign here: <placeholder>" until signed. */
  placeholder?: string
  /**
   * false: the widget is not listed in the page's /Annots (an invisible document timestamp), so
   * the page object stays as certified; mupdf counts any change to it as forbidden.
   */
  onPage?: boolean
}

export function createSignatureField(doc: PDFDocument, options: SignatureFieldOptions): PDFRef {
  const field = doc.context.obj({ FT: 'Sig' }) as PDFDict
  // Hex text strings carry any Unicode name without escaping rules to get wrong.
  field.set(PDFName.of('T'), PDFHexString.fromText(options.name))
  if (options.value) field.set(PDFName.of('V'), options.value)
  if (options.lock) field.set(PDFName.of('Lock'), fieldLockParams(doc.context, options.lock, 'SigFieldLock'))
  // The field's accessible name (PDF 32000-1, 12.7.3.1 /TU): what a screen reader announces.
  if (options.placeholder !== undefined) field.set(PDFName.of('TU'), PDFHexString.fromText(placeholderText(options.placeholder)))
  fillWidget(doc, field, options)
  const ref = doc.context.register(field)
  if (options.onPage !== false) addAnnotation(doc, options.page, ref)
  const acroForm = doc.catalog.getOrCreateAcroForm()
  acroForm.addField(ref)
  acroForm.dict.set(PDFName.of('SigFlags'), PDFNumber.of(SIG_FLAGS))
  return ref
}

function fillWidget(doc: PDFDocument, dict: PDFDict, widget: SignatureWidget & { placeholder?: string }): void {
  const { context } = doc
  const { x = 0, y = 0, width = 0, height = 0 } = widget.rect ?? {}
  dict.set(PDFName.of('Type'), PDFName.of('Annot'))
  dict.set(PDFName.of('Subtype'), PDFName.of('Widget'))
  dict.set(PDFName.of('Rect'), context.obj([x, y, x + width, y + height].map((n) => PDFNumber.of(round(n)))))
  dict.set(PDFName.of('F'), PDFNumber.of(PRINT_AND_LOCKED))
  dict.set(PDFName.of('P'), widget.page.ref)
  if (!(width > 0 && height > 0)) return
  // An explicit appearance when there is no stamp: without one, each viewer invents its own look
  // for an unsigned field (mupdf a small red "SIGN" flag), so a frozen document would not look the same everywhere.
  const normal = widget.appearance ?? (widget.placeholder === undefined
    ? context.register(context.stream('', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, round(width), round(height)] }))
    : placeholderAppearance(context, round(width), round(height), widget.placeholder))
  dict.set(PDFName.of('AP'), context.obj({ N: normal }))
}

/**
 * Lists the annotation on its page and touches nothing else: pdf-lib's addAnnot also rewrites the
 * page's /Contents into an array, which in an incremental update is a change to what the page
 * displays (forbidden after a signature).
 */
function addAnnotation(doc: PDFDocument, page: PDFPage, annotation: PDFRef): void {
  const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray)
  if (annots) annots.push(annotation)
  else page.node.set(PDFName.of('Annots'), doc.context.obj([annotation]))
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
