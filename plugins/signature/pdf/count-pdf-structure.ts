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

// "12 0 obj": whitespace (NUL, TAB, LF, FF, CR, space) before the keyword.
const isWhitespace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00
const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39
// Within this many bytes before "%%EOF" a "startxref" makes it a revision's end (as pdf-revisions.ts).
const STARTXREF_WINDOW = 64
// An object stream's dictionary is searched this far around "/ObjStm" for its /N.
const OBJSTM_WINDOW = 256

/**
 * Each count takes `stopAbove`: once that many are seen it stops and reports at least one more.
 * A caller with a limit needs no exact count past it, and 25 MB of "1 0 obj" would otherwise cost
 * millions of searches on the thread answering requests (about 1.5 s; bounded at 100,000, 30 ms).
 */
export function countRevisions(bytes: Uint8Array, stopAbove = Infinity): number {
  const buf = asBuffer(bytes)
  const eofs = count(buf, '%%EOF', stopAbove + 1, (at) => buf.subarray(Math.max(0, at - STARTXREF_WINDOW), at).includes('startxref'))
  // A table's "xref" keyword starts a line ("startxref" does not count); a stream says /XRef.
  const tables = count(buf, 'xref', stopAbove + 1, (at) => at === 0 || buf[at - 1] === 0x0a || buf[at - 1] === 0x0d)
  const streams = count(buf, '/XRef', stopAbove + 1, () => true)
  return Math.max(eofs, tables + streams, 1)
}

export function countObjects(bytes: Uint8Array, stopAbove = Infinity): number {
  const buf = asBuffer(bytes)
  const bound = stopAbove + 1
  // The generation's digit, whitespace, "obj" ("endobj" has a "d" before it).
  let objects = count(buf, 'obj', bound, (at) => isWhitespace(buf[at - 1]) && isDigit(buf[at - 2]))
  for (let at = buf.indexOf('/ObjStm'); at >= 0 && objects < bound; at = buf.indexOf('/ObjStm', at + 7)) {
    const around = buf.toString('latin1', Math.max(0, at - OBJSTM_WINDOW), Math.min(buf.length, at + OBJSTM_WINDOW))
    const n = /\/N\s+(\d{1,9})\b/.exec(around)
    objects += n ? Number(n[1]) : 1
  }
  return objects
}

/** Both counts, exact (tests, tools). */
export function countPdfStructure(bytes: Uint8Array): PdfStructureCounts {
  return { revisions: countRevisions(bytes), objects: countObjects(bytes) }
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/**
 * Occurrences of `marker` that `counts` accepts. Every occurrence is one search, accepted or
 * not; past 4 x `bound` searches the answer is `bound` (so a file cannot make this loop long with
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
