// A signature dictionary is written with fixed-width placeholders for /ByteRange and /Contents;
// once the whole file exists they are filled in place, so no byte offset moves.
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, type PDFContext, type PDFRef } from 'pdf-lib'

const RANGE_MARK = '**********' // ten characters: room for any offset below 10 GB
const BYTE_RANGE_PLACEHOLDER = `/ByteRange [ 0 /${RANGE_MARK} /${RANGE_MARK} /${RANGE_MARK} ]`
const CONTENTS_KEY = '/Contents <'

export function byteRangePlaceholder(context: PDFContext): PDFArray {
  const mark = PDFName.of(RANGE_MARK)
  return context.obj([PDFNumber.of(0), mark, mark, mark]) as PDFArray
}

/** Room for a CMS of `bytes` bytes, as zeros in hex. */
export function contentsPlaceholder(bytes: number): PDFHexString {
  return PDFHexString.of('0'.repeat(bytes * 2))
}

/** Resizes the room in a signature dictionary already built (its key keeps its place after /ByteRange). */
export function setContentsPlaceholder(context: PDFContext, signature: PDFRef, bytes: number): void {
  context.lookup(signature, PDFDict).set(PDFName.of('Contents'), contentsPlaceholder(bytes))
}

export interface PreparedSignature {
  /** The file with /ByteRange filled in and /Contents still zeros. */
  pdf: Buffer
  /** The two byte ranges the signature covers: everything but the /Contents hex string. */
  signedRanges: [Buffer, Buffer]
  holeStart: number
  capacity: number
}

/** Fills /ByteRange; split from the CMS step so other CMS builders can be measured against ours. */
export function prepareSignature(pdf: Uint8Array): PreparedSignature {
  const out = Buffer.from(pdf)
  const rangeAt = out.lastIndexOf(BYTE_RANGE_PLACEHOLDER, undefined, 'latin1')
  if (rangeAt < 0) throw new Error('The PDF has no unfilled /ByteRange placeholder')
  // The placeholder is always in the newest revision, so a second one would be a bug.
  if (out.indexOf(BYTE_RANGE_PLACEHOLDER, 0, 'latin1') !== rangeAt) throw new Error('The PDF has several /ByteRange placeholders')
  const contentsKeyAt = out.indexOf(CONTENTS_KEY, rangeAt, 'latin1')
  if (contentsKeyAt < 0) throw new Error('The signature dictionary has no /Contents after /ByteRange')
  const holeStart = contentsKeyAt + CONTENTS_KEY.length - 1 // at '<'
  const holeEnd = out.indexOf('>', holeStart, 'latin1') + 1 // after '>'

  const range = [0, holeStart, holeEnd, out.length - holeEnd]
  const rangeText = `/ByteRange [ ${range.join(' ')} `
  out.write(rangeText.padEnd(BYTE_RANGE_PLACEHOLDER.length - 1, ' ') + ']', rangeAt, 'latin1')
  return {
    pdf: out,
    signedRanges: [out.subarray(0, holeStart), out.subarray(holeEnd)],
    holeStart,
    capacity: (holeEnd - holeStart - 2) / 2,
  }
}

export function insertSignature(prepared: PreparedSignature, cms: Uint8Array): Buffer {
  if (cms.length > prepared.capacity) {
    throw new Error(`The signature (${cms.length} bytes) does not fit its placeholder (${prepared.capacity} bytes)`)
  }
  prepared.pdf.write(Buffer.from(cms).toString('hex'), prepared.holeStart + 1, 'latin1')
  return prepared.pdf
}
