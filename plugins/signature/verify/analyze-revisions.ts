// Compares each revision after the first signed one with the revision before it, object by
// object, and names every change (classify-changes.ts judges them), including the objects its
// cross-reference section marks free (freed-objects.ts, classify-freed-objects.ts).
import { PDFRawStream, PDFStream, type PDFDocument, type PDFObject } from 'pdf-lib'
import { loadPdf } from '../pdf/load-pdf.ts'
import { pdfLimits } from '../pdf/pdf-limits.ts'
import { classifyChanges, parseRef } from './classify-changes.ts'
import { classifyFreedObjects } from './classify-freed-objects.ts'
import { freedObjectNumbers } from './freed-objects.ts'
import { revisionState, type RevisionState } from './revision-state.ts'
import type { OneParseRevisions } from './revision-snapshots.ts'
import type { Change } from './verification-report.ts'

export interface RevisionAnalysis {
  /** Revision number -> its changes. */
  changes: Map<number, Change[]>
  /** Revisions in which validation data (DSS) was added or changed. */
  dssRevisions: number[]
  /** Revisions that could not be read on their own (their changes are unknown). */
  unreadable: number[]
}

/**
 * @param parseable The file with signature values blanked (same offsets), for fast parsing.
 * @param ends Where each revision ends. @param from The first signed revision (1-based).
 * @param certification The certification's revision and P, if certified.
 * @param signedIn Signature field -> revision of the intact-looking signature that fills it.
 * @param fromOneParse Every revision from the parse that gave `final` (revision-snapshots.ts), when
 * its sections line up with `ends`; otherwise each revision's prefix is parsed alone.
 */
export async function analyzeRevisions(parseable: Uint8Array, ends: number[], from: number, final: PDFDocument, certification: { revision: number; p: number } | undefined, signedIn: ReadonlyMap<string, number> = new Map(), fromOneParse?: OneParseRevisions): Promise<RevisionAnalysis> {
  try {
    return await compareRevisions(parseable, ends, from, final, certification, signedIn, fromOneParse)
  } finally {
    // `final` reads through the context the revisions were activated in.
    fromOneParse?.restore()
  }
}

async function compareRevisions(parseable: Uint8Array, ends: number[], from: number, final: PDFDocument, certification: { revision: number; p: number } | undefined, signedIn: ReadonlyMap<string, number>, fromOneParse: OneParseRevisions | undefined): Promise<RevisionAnalysis> {
  const result: RevisionAnalysis = { changes: new Map(), dssRevisions: [], unreadable: [] }
  const text = Buffer.from(parseable.buffer, parseable.byteOffset, parseable.byteLength)
  const stateAt = async (revision: number): Promise<RevisionState | undefined> => {
    const end = ends[revision - 1]!
    try {
      if (fromOneParse) return fromOneParse.stateAt(revision)
      return revisionState(end >= parseable.length ? final : await loadPdf(parseable.subarray(0, end)))
    } catch {
      return undefined
    }
  }
  let prev = await stateAt(from)
  // Freed objects stay in pdf-lib's tables: each is reported once, until an update defines it again.
  const freedBefore = new Set<number>()
  for (let revision = from + 1; revision <= ends.length; revision++) {
    const cur = await stateAt(revision)
    if (!prev || !cur) {
      result.unreadable.push(revision)
      prev = cur
      continue
    }
    const candidates = changedCandidates(text, ends[revision - 2]!, ends[revision - 1]!, cur)
    const changed = candidates.filter((ref) => !sameObject(prev!.lookup(parseRef(ref)), cur.lookup(parseRef(ref))))
    const p = certification && certification.revision < revision ? certification.p : undefined
    for (const ref of candidates) freedBefore.delete(parseRef(ref).objectNumber)
    const freed = freedObjectNumbers(text, ends[revision - 2]!, ends[revision - 1]!, pdfLimits().maxDecodedBytes).filter((n) => !freedBefore.has(n))
    const freedRefs = freed.length === 0 ? [] : prev.refs().filter((ref) => freed.includes(ref.objectNumber)).map(String)
    for (const n of freed) freedBefore.add(n)
    const changes = [...classifyChanges(revision, changed, prev, cur, { p, signedIn }), ...classifyFreedObjects(revision, freedRefs, prev, cur, { p })]
    result.changes.set(revision, changes)
    if (changes.some((c) => c.kind === 'dss')) result.dssRevisions.push(revision)
    prev = cur
  }
  return result
}

/** Objects an update (re)defines: those with an "N G obj" header in it, or every object when it uses object streams. */
function changedCandidates(bytes: Buffer, start: number, end: number, cur: RevisionState): string[] {
  const section = bytes.toString('latin1', start, end)
  if (section.includes('/ObjStm')) return cur.refs().map((ref) => ref.toString())
  const refs = new Set<string>()
  for (const match of section.matchAll(/(?:^|[^0-9])(\d{1,10})\s+(\d{1,5})\s+obj\b/g)) refs.add(`${Number(match[1])} ${Number(match[2])} R`)
  return [...refs]
}

function sameObject(a: PDFObject | undefined, b: PDFObject | undefined): boolean {
  if (a === undefined || b === undefined) return a === b
  if (a instanceof PDFStream || b instanceof PDFStream) {
    if (!(a instanceof PDFRawStream) || !(b instanceof PDFRawStream)) return false
    return a.dict.toString() === b.dict.toString() && Buffer.from(a.getContents()).equals(Buffer.from(b.getContents()))
  }
  return a.toString() === b.toString()
}
