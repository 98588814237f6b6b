// Every revision of a file from ONE parse: the parse that also gives the verifier its document.
// pdf-lib's parser reads a file front to back, one section (objects, cross-reference, trailer,
// %%EOF) at a time, each later definition replacing the earlier; a copy of its object table after
// each section is that revision. Parsing each revision's prefix separately cost one full parse per
// revision (a 100-page file with 10 signatures: ~11 parses), and parsing the whole file a second
// time for the document itself one more; this costs one.
//
// All revisions share the parser's one context (pdf-lib objects resolve references through it),
// so a revision is "activated" — the context pointed at its table — while its state is built, and
// the whole file's table is put back when the revisions are done with (restore()): the document
// loadPdf returned reads through the same context.
import { PDFDocument, type PDFContext, type PDFObject, type PDFRef } from 'pdf-lib'
import { loadPdf } from '../pdf/load-pdf.ts'
import { revisionState, type RevisionState } from './revision-state.ts'

interface Snapshot {
  /** Where the parser stood after the section: at or just past the revision's %%EOF. */
  offset: number
  objects: Map<PDFRef, PDFObject>
  trailerInfo: PDFContext['trailerInfo']
}

interface ContextInternals { indirectObjects: Map<PDFRef, PDFObject>; trailerInfo: PDFContext['trailerInfo'] }

export interface OneParseRevisions {
  /** Revision `n`'s state (1-based, in the order of `ends`), its table activated in the shared context. */
  stateAt(revision: number): RevisionState
  /** Points the shared context back at the whole file's table (what the loaded document reads). */
  restore(): void
}

/** Pass `onSection` to loadPdf, then ask `revisions()` for each revision of what it parsed. */
export class SectionRecorder {
  private readonly snapshots: Snapshot[] = []

  readonly onSection = (context: PDFContext, offset: number): void => {
    const internals = context as unknown as ContextInternals
    this.snapshots.push({ offset, objects: new Map(internals.indirectObjects), trailerInfo: { ...internals.trailerInfo } })
  }

  /**
   * The revisions of `doc` (loaded with this recorder), or undefined when the sections the parser
   * saw do not line up with the revisions (then each prefix is parsed alone).
   */
  revisions(doc: PDFDocument, ends: number[]): OneParseRevisions | undefined {
    const { snapshots } = this
    // One snapshot per revision, each ending at its revision's end (or just past it: whitespace).
    const aligned = snapshots.length === ends.length && snapshots.every((s, i) => s.offset >= ends[i]! - 2 && (i === ends.length - 1 || s.offset <= ends[i + 1]!))
    if (!aligned) return undefined
    const context = doc.context as unknown as ContextInternals
    // The table after parseDocument() finished (root recovery, object 0 dropped): the document's own.
    const whole = { objects: context.indirectObjects, trailerInfo: context.trailerInfo }
    return {
      stateAt(revision) {
        const snapshot = snapshots[revision - 1]!
        context.indirectObjects = snapshot.objects
        context.trailerInfo = snapshot.trailerInfo
        // PDFDocument's constructor is private in the typings only; loadPdf already refused encryption.
        const Document = PDFDocument as unknown as new (context: PDFContext, ignoreEncryption: boolean, updateMetadata: boolean) => PDFDocument
        const state = revisionState(new Document(doc.context, true, false))
        state.lookup = (ref) => snapshot.objects.get(ref)
        state.refs = () => [...snapshot.objects.keys()]
        return state
      },
      restore() {
        context.indirectObjects = whole.objects
        context.trailerInfo = whole.trailerInfo
      },
    }
  }
}

/**
 * Parses `parseable` once and gives revision `n`'s state, or undefined when the file cannot be
 * parsed or its sections do not line up with the revisions.
 */
export async function revisionStatesFromOneParse(parseable: Uint8Array, ends: number[]): Promise<((revision: number) => RevisionState) | undefined> {
  const recorder = new SectionRecorder()
  let doc: PDFDocument
  try {
    doc = await loadPdf(parseable, { onSection: recorder.onSection })
  } catch {
    return undefined
  }
  return recorder.revisions(doc, ends)?.stateAt
}
