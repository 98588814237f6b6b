// The signatures a document holds: every signature field's value, and any signature dictionary
// no field shows (a field removed from the form still leaves its signature in the file). A
// signature dictionary that lost its /ByteRange (missing, null: Universal Signature Forgery) is
// still a signature the document claims to carry: it is listed, with the problem, never skipped.
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, PDFString, PDFHexString, type PDFDocument } from 'pdf-lib'
import { listFields, type FieldNode } from '../pdf/signature-fields.ts'
import { parseNode, raw } from '../pdf/read-der.ts'

export interface FoundSignature {
  field: string | null
  /** The signature field whose /V this is; null for a signature dictionary no field shows. */
  fieldRef: PDFRef | null
  ref: PDFRef
  dict: PDFDict
  type: 'Sig' | 'DocTimeStamp'
  subFilter: string | null
  claimedTime: Date | null
  byteRange: number[] | null
  /** The DER in the byte range's gap, read from the file itself; null when the gap is not a hex string. */
  contents: Buffer | null
  /** What is wrong with the byte range, if anything. */
  byteRangeProblem?: string
  isCertification: boolean
}

const N = (name: string) => PDFName.of(name)

export function findSignatures(doc: PDFDocument, bytes: Uint8Array): FoundSignature[] {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const certifying = doc.catalog.lookupMaybe(N('Perms'), PDFDict)?.get(N('DocMDP'))
  const found = new Map<string, FoundSignature>()
  // `ref`: the signature dictionary's own object, or the field's when /V holds it directly.
  const consider = (ref: PDFRef, field: FieldNode | null, direct?: PDFDict) => {
    const dict = direct ?? doc.context.lookup(ref)
    if (!(dict instanceof PDFDict) || found.has(ref.toString())) return
    const type = dict.lookupMaybe(N('Type'), PDFName)?.decodeText() === 'DocTimeStamp' ? 'DocTimeStamp' : 'Sig'
    const subFilter = dict.lookupMaybe(N('SubFilter'), PDFName)?.decodeText() ?? null
    const m = dict.lookup(N('M'))
    const claimedTime = m instanceof PDFString || m instanceof PDFHexString ? safeDate(() => m.decodeDate()) : null
    const range = dict.lookup(N('ByteRange'))
    const numbers = range instanceof PDFArray ? range.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : NaN)) : []
    const signature: FoundSignature = {
      field: field?.name ?? null, fieldRef: field?.ref ?? null, ref, dict, type, subFilter, claimedTime, byteRange: numbers.length === 4 ? numbers : null, contents: null,
      isCertification: (certifying instanceof PDFRef && certifying.toString() === ref.toString()) || hasDocMdpReference(dict),
    }
    signature.byteRangeProblem = checkByteRange(buffer, signature, ref)
    if (!signature.byteRangeProblem) signature.contents = readContents(buffer, signature.byteRange!)
    if (!signature.byteRangeProblem && !signature.contents) signature.byteRangeProblem = 'The signature value is not a readable CMS structure'
    found.set(ref.toString(), signature)
  }
  for (const field of listFields(doc)) {
    const value = field.dict.get(N('V'))
    if (field.isSignature && value instanceof PDFRef) consider(value, field)
    else if (field.isSignature && value instanceof PDFDict) consider(field.ref, field, value)
  }
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFDict && isSignatureDictionary(object)) consider(ref, null)
  }
  return [...found.values()].sort((a, b) => (a.byteRange?.[1] ?? 0) - (b.byteRange?.[1] ?? 0))
}

/** A signature value no field shows: /Type /Sig or /DocTimeStamp, or the /ByteRange and /Contents pair. */
function isSignatureDictionary(dict: PDFDict): boolean {
  if (!(dict.get(N('Contents')) instanceof PDFHexString || dict.get(N('Contents')) instanceof PDFString || dict.get(N('Contents')) instanceof PDFRef)) return false
  const type = dict.get(N('Type'))
  return dict.has(N('ByteRange')) || type === N('Sig') || type === N('DocTimeStamp')
}

function checkByteRange(buffer: Buffer, signature: FoundSignature, ref: PDFRef): string | undefined {
  const range = signature.byteRange
  if (!signature.dict.has(N('ByteRange'))) return 'The signature does not say which bytes of the file it signs (its /ByteRange is missing), so nothing can be checked'
  if (!range || range.some((n) => !Number.isSafeInteger(n) || n < 0)) return 'The /ByteRange is not four non-negative integers'
  const [start, firstLength, second, secondLength] = range as [number, number, number, number]
  if (start !== 0) return 'The /ByteRange does not start at the beginning of the file'
  if (second <= firstLength || second + secondLength > buffer.length) return 'The /ByteRange points outside the file'
  if (buffer[firstLength] !== 0x3c || buffer[second - 1] !== 0x3e) return 'The gap the /ByteRange leaves is not the /Contents hex string'
  if (!/^[0-9A-Fa-f\s]*$/.test(buffer.toString('latin1', firstLength + 1, second - 1))) return 'The gap the /ByteRange leaves holds more than the signature value'
  // The gap must be this signature's own /Contents, not another object's: its header is the last
  // one in the 64 KiB before the gap, with no "endobj" after it. Only the text after the last
  // "endobj" can hold such a header (no header contains "endobj"), so only that is read: the whole
  // window, once per signature, was a copy and a regular-expression scan of 64 KiB each.
  const header = new RegExp(`(?:^|[^0-9])${ref.objectNumber}\\s+${ref.generationNumber}\\s+obj\\b`, 'g')
  const windowStart = Math.max(0, firstLength - 65_536)
  const lastEnd = firstLength - windowStart >= 6 ? buffer.lastIndexOf('endobj', firstLength - 6, 'latin1') : -1
  const before = buffer.toString('latin1', lastEnd >= windowStart ? lastEnd : windowStart, firstLength)
  let objectAt = -1
  for (const match of before.matchAll(header)) objectAt = match.index!
  if (objectAt < 0 || before.indexOf('endobj', objectAt) >= 0) return "The /ByteRange's gap is not inside this signature's own dictionary"
  return undefined
}

function readContents(buffer: Buffer, range: number[]): Buffer | null {
  const text = buffer.toString('latin1', range[1]! + 1, range[2]! - 1)
  // Signers write plain hex digits: decoded as they are when every pair is one (node's decoder
  // stops at the first that is not); whitespace, or an odd digit, takes the longer way.
  let bytes = Buffer.from(text, 'hex')
  if (bytes.length * 2 !== text.length) {
    const hex = text.replace(/\s+/g, '')
    bytes = Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex')
  }
  try {
    // The placeholder is padded with zeros after the DER.
    return raw(parseNode(bytes))
  } catch {
    // Unreadable: the CMS reader names why, with the padding still there.
    return bytes.length > 0 ? bytes : null
  }
}

function hasDocMdpReference(dict: PDFDict): boolean {
  const references = dict.lookupMaybe(N('Reference'), PDFArray)
  return (references?.asArray() ?? []).some((_, i) => references!.lookupMaybe(i, PDFDict)?.lookupMaybe(N('TransformMethod'), PDFName) === N('DocMDP'))
}

function safeDate(read: () => Date): Date | null {
  try {
    const date = read()
    return Number.isNaN(date.getTime()) ? null : date
  } catch {
    return null
  }
}
