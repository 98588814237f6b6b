// Reads the newest trailer of a PDF: what an incremental update must point back to (/Prev)
// and carry forward (/Size, /Root, /Info, /ID).
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFObjectParser, PDFRawStream, PDFRef, type PDFContext } from 'pdf-lib'
import { ERR_PDF_INVALID } from './errors.ts'

export interface TrailerInfo {
  /** What the newest section is: an update must continue it in kind (a stream after a stream). */
  crossReference: 'table' | 'stream'
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
  const dict = trailerDictionary(buffer, startxref, context)
  const size = dict.get(PDFName.of('Size'))
  const root = dict.get(PDFName.of('Root'))
  if (!(size instanceof PDFNumber) || !(root instanceof PDFRef)) throw ERR_PDF_INVALID('The PDF trailer lacks /Size or /Root')
  const info = dict.get(PDFName.of('Info'))
  const id = dict.get(PDFName.of('ID'))
  return {
    crossReference: dict.get(PDFName.of('Type')) === PDFName.of('XRef') ? 'stream' : 'table',
    startxref,
    size: size.asNumber(),
    root,
    info: info instanceof PDFRef ? info : undefined,
    id: id instanceof PDFArray ? id : undefined,
  }
}

/** The trailer after a classic table, or a cross-reference stream's own dictionary (PDF 32000-1, 7.5.8). */
function trailerDictionary(buffer: Buffer, startxref: number, context: PDFContext): PDFDict {
  if (buffer.toString('latin1', startxref, startxref + 4) === 'xref') {
    const trailerAt = buffer.indexOf('trailer', startxref, 'latin1')
    if (trailerAt < 0) throw ERR_PDF_INVALID('The PDF has no trailer after its last cross-reference table')
    const dict = PDFObjectParser.forBytes(buffer.subarray(trailerAt + 'trailer'.length), context).parseObject()
    if (!(dict instanceof PDFDict)) throw ERR_PDF_INVALID('The PDF trailer is not a dictionary')
    return dict
  }
  const header = /^(\d+)\s+(\d+)\s+obj\s*/.exec(buffer.toString('latin1', startxref, startxref + 40))
  const parsed = header ? PDFObjectParser.forBytes(buffer.subarray(startxref + header[0].length), context).parseObject() : undefined
  // The parser reads the dictionary with the stream that follows it.
  const dict = parsed instanceof PDFRawStream ? parsed.dict : parsed
  if (!(dict instanceof PDFDict) || dict.get(PDFName.of('Type')) !== PDFName.of('XRef')) {
    throw ERR_PDF_INVALID('The PDF\'s startxref points at neither a cross-reference table nor a cross-reference stream')
  }
  return dict
}
