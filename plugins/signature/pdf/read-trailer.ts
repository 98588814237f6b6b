// Reads the newest trailer of a PDF: what an incremental update must point back to (/Prev)
// and carry forward (/Size, /Root, /Info, /ID).
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFObjectParser, PDFRef, type PDFContext } from 'pdf-lib'
import { ERR_PDF_INVALID } from './errors.ts'

export interface TrailerInfo {
  /** Offset of the newest cross-reference section: the next update's /Prev. */
  startxref: number
  size: number
  root: PDFRef
  info?: PDFRef
  id?: PDFArray
}

export function readLastTrailer(bytes: Uint8Array, context: PDFContext): TrailerInfo {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const keywordAt = buffer.lastIndexOf('startxref', undefined, 'latin1')
  const startxref = keywordAt < 0 ? NaN : Number(/^startxref\s+(\d+)/.exec(buffer.toString('latin1', keywordAt, keywordAt + 40))?.[1])
  if (!Number.isSafeInteger(startxref) || startxref >= buffer.length) throw ERR_PDF_INVALID('The PDF has no valid startxref')
  const section = buffer.toString('latin1', startxref, startxref + 4)
  if (section !== 'xref') {
    // A cross-reference stream would have to be continued by another stream; documents are
    // normalized to classic tables before their first signature so that never happens.
    throw ERR_PDF_INVALID('The PDF ends with a cross-reference stream; normalize or freeze it before signing a field')
  }
  const trailerAt = buffer.indexOf('trailer', startxref, 'latin1')
  if (trailerAt < 0) throw ERR_PDF_INVALID('The PDF has no trailer after its last cross-reference table')
  const dict = PDFObjectParser.forBytes(buffer.subarray(trailerAt + 'trailer'.length), context).parseObject()
  if (!(dict instanceof PDFDict)) throw ERR_PDF_INVALID('The PDF trailer is not a dictionary')
  const size = dict.get(PDFName.of('Size'))
  const root = dict.get(PDFName.of('Root'))
  if (!(size instanceof PDFNumber) || !(root instanceof PDFRef)) throw ERR_PDF_INVALID('The PDF trailer lacks /Size or /Root')
  const info = dict.get(PDFName.of('Info'))
  const id = dict.get(PDFName.of('ID'))
  return {
    startxref,
    size: size.asNumber(),
    root,
    info: info instanceof PDFRef ? info : undefined,
    id: id instanceof PDFArray ? id : undefined,
  }
}
