// How big a PDF is in the units that make reading it costly, found with byte searches only (no
// parse, no string of the file), so a caller can refuse a file before any worker spends seconds
// on it. Counts are what the file claims; a stray match inside a binary stream can only raise
// them, which errs on the side of refusing.
export interface PdfStructureCounts {
  /** Revisions: "%%EOF" markers closing a cross-reference section (a "startxref" just before), or cross-reference sections, whichever is more. */
  revisions: number
  /** Indirect objects: "N G obj" headers plus the /N of every object stream. */
  objects: number
}

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20])
const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39
// Within this many bytes before "%%EOF" a "startxref" makes it a revision's end (as pdf-revisions.ts).
const STARTXREF_WINDOW = 64
// An object stream's dictionary is searched this far around "/ObjStm" for its /N.
const OBJSTM_WINDOW = 256

/**
 * @param stopAbove Once this many of a marker are seen, stop searching for it and report at least
 * that many: a caller with a limit needs no exact count past it, and 25 MB of "1 0 obj" would
 * otherwise cost millions of searches on the thread answering requests.
 */
export function countPdfStructure(bytes: Uint8Array, stopAbove: { revisions: number; objects: number } = { revisions: Infinity, objects: Infinity }): PdfStructureCounts {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const revisionBound = stopAbove.revisions + 1
  const eofs = count(buf, '%%EOF', revisionBound, (at) => buf.subarray(Math.max(0, at - STARTXREF_WINDOW), at).includes('startxref'))
  // A table's "xref" keyword starts a line ("startxref" does not count); a stream says /XRef.
  const tables = count(buf, 'xref', revisionBound, (at) => at === 0 || buf[at - 1] === 0x0a || buf[at - 1] === 0x0d)
  const streams = count(buf, '/XRef', revisionBound, () => true)

  const objectBound = stopAbove.objects + 1
  // "12 0 obj": whitespace, then the generation's digit before the keyword ("endobj" has a "d").
  let objects = count(buf, 'obj', objectBound, (at) => WHITESPACE.has(buf[at - 1]!) && isDigit(buf[at - 2]))
  for (let at = buf.indexOf('/ObjStm'); at >= 0 && objects < objectBound; at = buf.indexOf('/ObjStm', at + 7)) {
    const around = buf.toString('latin1', Math.max(0, at - OBJSTM_WINDOW), Math.min(buf.length, at + OBJSTM_WINDOW))
    const n = /\/N\s+(\d{1,9})\b/.exec(around)
    objects += n ? Number(n[1]) : 1
  }
  return { revisions: Math.max(eofs, tables + streams, 1), objects }
}

/**
 * Occurrences of `marker` that `counts` accepts. Every occurrence is one search, accepted or
 * not; past `bound` searches the answer is `bound` (so a file cannot make this loop long with
 * markers that do not count).
 */
function count(buf: Buffer, marker: string, bound: number, counts: (at: number) => boolean): number {
  let accepted = 0
  let searched = 0
  for (let at = buf.indexOf(marker); at >= 0; at = buf.indexOf(marker, at + marker.length)) {
    if (++searched > bound * 4) return Math.max(accepted, bound)
    if (counts(at) && ++accepted >= bound) return accepted
  }
  return accepted
}
