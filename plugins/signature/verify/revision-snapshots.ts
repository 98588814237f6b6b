// Every revision of a file from ONE parse. pdf-lib's parser reads a file front to back, one
// section (objects, cross-reference, trailer, %%EOF) at a time, each later definition replacing
// the earlier; a copy of its object table after each section is that revision. Parsing each
// revision's prefix separately cost one full parse per revision (a 100-page file with 10
// signatures: ~11 parses); this costs one.
//
// All revisions share the parser's one context (pdf-lib objects resolve references through it),
// so a revision is "activated" — the context pointed at its table — while its state is built.
import { PDFDocument, PDFParser, type PDFContext, type PDFObject, type PDFRef } from 'pdf-lib'
import { withDecodeBudget } from '../pdf/decode-budget.ts'
import { pdfLimits } from '../pdf/pdf-limits.ts'
import { revisionState, type RevisionState } from './revision-state.ts'

interface Snapshot {
  /** Where the parser stood after the section: at or just past the revision's %%EOF. */
  offset: number
  objects: Map<PDFRef, PDFObject>
  trailerInfo: PDFContext['trailerInfo']
}

interface ParserInternals {
  context: PDFContext
  bytes: { offset(): number }
  parseDocument(): Promise<PDFContext>
  parseDocumentSection(): Promise<void>
}

interface ContextInternals { indirectObjects: Map<PDFRef, PDFObject>; trailerInfo: PDFContext['trailerInfo'] }

/**
 * A function giving revision `n`'s state (1-based, in the order of `ends`), or undefined when the
 * sections the parser saw do not line up with the revisions (then each prefix is parsed alone).
 */
export async function revisionStatesFromOneParse(parseable: Uint8Array, ends: number[]): Promise<((revision: number) => RevisionState) | undefined> {
  const parser = PDFParser.forBytesWithOptions(parseable, Infinity) as unknown as ParserInternals
  const snapshots: Snapshot[] = []
  const section = parser.parseDocumentSection.bind(parser)
  parser.parseDocumentSection = async () => {
    await section()
    const context = parser.context as unknown as ContextInternals
    snapshots.push({ offset: parser.bytes.offset(), objects: new Map(context.indirectObjects), trailerInfo: { ...context.trailerInfo } })
  }
  try {
    await withDecodeBudget(pdfLimits().maxDecodedBytes, () => parser.parseDocument())
  } catch {
    return undefined
  }
  // One snapshot per revision, each ending at its revision's end (or just past it: whitespace).
  const aligned = snapshots.length === ends.length && snapshots.every((s, i) => s.offset >= ends[i]! - 2 && (i === ends.length - 1 || s.offset <= ends[i + 1]!))
  if (!aligned) return undefined
  const context = parser.context as unknown as ContextInternals
  return (revision) => {
    const snapshot = snapshots[revision - 1]!
    context.indirectObjects = snapshot.objects
    context.trailerInfo = snapshot.trailerInfo
    // PDFDocument's constructor is private in the typings only; loadPdf already refused encryption.
    const Document = PDFDocument as unknown as new (context: PDFContext, ignoreEncryption: boolean, updateMetadata: boolean) => PDFDocument
    const state = revisionState(new Document(parser.context, true, false))
    state.lookup = (ref) => snapshot.objects.get(ref)
    state.refs = () => [...snapshot.objects.keys()]
    return state
  }
}
