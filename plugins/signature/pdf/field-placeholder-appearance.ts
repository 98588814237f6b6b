// What an unsigned field of a session shows until its signer signs: a thin dashed frame and
// "Sign here: <slot label>" in dark blue, as the widget's own appearance (not page content, so the
// signer's appearance replaces it, a change DocMDP P=2 allows). Helvetica with WinAnsiEncoding,
// one of the 14 fonts every viewer has, so nothing is embedded.
import { PDFHexString, type PDFContext, type PDFRef } from 'pdf-lib'

const INK = '0.118 0.227 0.541' // #1e3a8a: 10:1 on white
// Helvetica's average advance per em for mixed-case text; a label that would pass the box is cut.
const AVERAGE_ADVANCE = 0.55
const MAX_FONT = 10
const MIN_FONT = 5

/** The words of the placeholder; also the field's /TU, what assistive technology reads for it. */
export function placeholderText(label: string): string {
  return `Sign here: ${label}`
}

/** Latin-1 codes are WinAnsi's too (bar 0x80-0x9F); anything else becomes '?'. */
function winAnsi(text: string): PDFHexString {
  const bytes = [...text].map((c) => {
    const code = c.codePointAt(0) ?? 63
    return (code >= 32 && code < 127) || (code >= 160 && code <= 255) ? code : 63
  })
  return PDFHexString.of(bytes.map((b) => b.toString(16).padStart(2, '0')).join(''))
}

function fitted(text: string, size: number, width: number): string {
  const room = Math.floor(width / (size * AVERAGE_ADVANCE))
  return text.length <= room ? text : `${text.slice(0, Math.max(room - 3, 1))}...`
}

const n = (value: number) => String(Math.round(value * 100) / 100)

/** A form XObject of `width` x `height` points saying "Sign here: <label>". */
export function placeholderAppearance(context: PDFContext, width: number, height: number, label: string): PDFRef {
  const size = Math.max(MIN_FONT, Math.min(MAX_FONT, height * 0.35))
  const pad = Math.min(4, width / 10)
  const text = fitted(placeholderText(label), size, width - 2 * pad)
  const frame = `q ${INK} RG 0.75 w [3 2] 0 d 0.375 0.375 ${n(width - 0.75)} ${n(height - 0.75)} re S Q`
  // Clipped to the box: a label never draws outside its field.
  const words = `q 0 0 ${n(width)} ${n(height)} re W n BT ${INK} rg /Helv ${n(size)} Tf ${n(pad)} ${n(Math.max(height / 2 - size * 0.35, 1))} Td ${winAnsi(text).toString()} Tj ET Q`
  const font = context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' })
  const stream = context.stream(`${frame}\n${words}\n`, {
    Type: 'XObject',
    Subtype: 'Form',
    BBox: [0, 0, width, height],
    Resources: { Font: { Helv: font } },
  })
  return context.register(stream)
}
