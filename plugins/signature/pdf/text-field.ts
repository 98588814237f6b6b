// The form fields of a document session besides signatures (date signed, name, initials, text):
// created empty in the certified revision, filled in the signer's own incremental update. Filling
// a form field is a change DocMDP P=2 allows, and the value is drawn as the widget's appearance
// (/AP /N) in Helvetica, so every viewer and text extractor shows the same words.
import { PDFArray, PDFHexString, PDFName, PDFNumber, type PDFContext, type PDFDict, type PDFDocument, type PDFObject, type PDFPage, type PDFRef } from 'pdf-lib'
import { displayedToUser, frameOf, type QuarterTurn } from './page-frame.ts'
import type { Box } from './stamp-geometry.ts'

const PRINT = 4
const DEFAULT_APPEARANCE = '/Helv 10 Tf 0 g'
const INK = '0.118 0.227 0.541'
const AVERAGE_ADVANCE = 0.55

/** Latin-1 codes are WinAnsi's too (bar 0x80-0x9F); anything else becomes '?'. */
function winAnsi(text: string): PDFHexString {
  const bytes = [...text].map((c) => {
    const code = c.codePointAt(0) ?? 63
    return (code >= 32 && code < 127) || (code >= 160 && code <= 255) ? code : 63
  })
  return PDFHexString.of(bytes.map((b) => b.toString(16).padStart(2, '0')).join(''))
}

const n = (value: number) => String(Math.round(value * 100) / 100 + 0)

function helvetica(context: PDFContext) {
  return context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' })
}

/**
 * A form XObject of the widget's size drawing `text` upright on the page as displayed (a widget
 * turns with its page, so the text is turned back); `hint` draws it as a faint dashed label.
 */
export function textAppearance(context: PDFContext, size: { width: number; height: number }, rotate: QuarterTurn, text: string, hint = false): PDFRef {
  const frame = frameOf({ x: 0, y: 0, width: size.width, height: size.height }, rotate)
  const fontSize = Math.max(5, Math.min(hint ? 9 : 12, frame.height * 0.6))
  const pad = Math.min(3, frame.width / 10)
  const room = Math.floor((frame.width - 2 * pad) / (fontSize * AVERAGE_ADVANCE))
  const shown = text.length <= room ? text : `${text.slice(0, Math.max(room - 3, 1))}...`
  const baseline = Math.max(frame.height / 2 - fontSize * 0.35, 1)
  const toWidget = displayedToUser(frame).map(n).join(' ')
  const box = hint ? `q ${INK} RG 0.5 w [2 2] 0 d 0.25 0.25 ${n(frame.width - 0.5)} ${n(frame.height - 0.5)} re S Q ` : ''
  const operators = `q ${toWidget} cm ${box}q 0 0 ${n(frame.width)} ${n(frame.height)} re W n BT ${hint ? INK : '0 0 0'} rg /Helv ${n(fontSize)} Tf ${n(pad)} ${n(baseline)} Td ${winAnsi(shown).toString()} Tj ET Q Q\n`
  return context.register(context.stream(operators, {
    Type: 'XObject', Subtype: 'Form', BBox: [0, 0, n(size.width), n(size.height)].map(Number), Resources: { Font: { Helv: helvetica(context) } },
  }))
}

export interface TextFieldOptions {
  name: string
  page: PDFPage
  /** In the page's user space. */
  rect: Box
  rotate: QuarterTurn
  /** What the empty field shows and assistive technology reads ("Date signed"). */
  label: string
}

/** An empty text field merged with its widget, on its page and in the form. */
export function createTextField(doc: PDFDocument, options: TextFieldOptions): PDFRef {
  const { context } = doc
  const { x, y, width, height } = options.rect
  const field = context.obj({ FT: 'Tx', Type: 'Annot', Subtype: 'Widget', F: PRINT }) as PDFDict
  field.set(PDFName.of('T'), PDFHexString.fromText(options.name))
  field.set(PDFName.of('TU'), PDFHexString.fromText(options.label))
  field.set(PDFName.of('DA'), PDFHexString.fromText(DEFAULT_APPEARANCE))
  field.set(PDFName.of('Rect'), context.obj([x, y, x + width, y + height].map((v) => PDFNumber.of(Math.round(v * 1000) / 1000))))
  field.set(PDFName.of('P'), options.page.ref)
  field.set(PDFName.of('AP'), context.obj({ N: textAppearance(context, { width, height }, options.rotate, options.label, true) }))
  const ref = context.register(field)
  const annots = options.page.node.lookupMaybe(PDFName.of('Annots'), PDFArray)
  if (annots) annots.push(ref)
  else options.page.node.set(PDFName.of('Annots'), context.obj([ref]))
  const acroForm = doc.catalog.getOrCreateAcroForm()
  acroForm.addField(ref)
  // The form's default resources name the font every field's /DA uses.
  acroForm.dict.set(PDFName.of('DR'), context.obj({ Font: { Helv: helvetica(context) } }))
  acroForm.dict.set(PDFName.of('DA'), PDFHexString.fromText(DEFAULT_APPEARANCE))
  return ref
}

/** Gives a text field its value and an appearance showing it: the objects the update must carry. */
export function fillTextField(context: PDFContext, field: { ref: PDFRef; dict: PDFDict }, value: string, rotate: QuarterTurn): Array<[PDFRef, PDFObject]> {
  field.dict.set(PDFName.of('V'), PDFHexString.fromText(value))
  const rect = field.dict.lookupMaybe(PDFName.of('Rect'), PDFArray)?.asArray().map((v) => (v instanceof PDFNumber ? v.asNumber() : 0)) ?? [0, 0, 0, 0]
  const width = Math.abs(rect[2]! - rect[0]!)
  const height = Math.abs(rect[3]! - rect[1]!)
  field.dict.set(PDFName.of('AP'), context.obj({ N: textAppearance(context, { width, height }, rotate, value) }))
  return [[field.ref, field.dict]]
}
