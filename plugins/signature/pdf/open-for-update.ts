// What every incremental update starts with: the signed file parsed only to read it and to build
// new objects (it is never re-saved; earlier signatures' values are skipped in the parse, nothing
// reads them), its newest trailer, and new objects numbered from that trailer's /Size on, even if
// pdf-lib saw fewer objects than the file declares, so that no new object shadows a live one.
import type { PDFDocument, PDFObject, PDFRef } from 'pdf-lib'
import { loadPdf } from './load-pdf.ts'
import { readLastTrailer, type TrailerInfo } from './read-trailer.ts'
import { withSignatureContentsSkipped } from './signature-contents-skipped.ts'

export interface OpenedForUpdate {
  doc: PDFDocument
  previous: TrailerInfo
  /** The objects made since opening: all of them go into the update. */
  created(): Array<[PDFRef, PDFObject]>
}

export async function openForUpdate(pdf: Uint8Array): Promise<OpenedForUpdate> {
  return startingAt(await loadPdf(withSignatureContentsSkipped(pdf)), pdf)
}

/**
 * The same parsed document, for a further update after `updated` (the bytes an update of `opened`
 * produced): what that update wrote is already in the document's objects, so a second update in a
 * row costs no second parse of the file.
 */
export function continueAfter(opened: OpenedForUpdate, updated: Uint8Array): OpenedForUpdate {
  return startingAt(opened.doc, updated)
}

function startingAt(doc: PDFDocument, pdf: Uint8Array): OpenedForUpdate {
  const previous = readLastTrailer(pdf, doc.context)
  doc.context.largestObjectNumber = Math.max(doc.context.largestObjectNumber, previous.size - 1)
  const firstNewNumber = doc.context.largestObjectNumber + 1
  return { doc, previous, created: () => doc.context.enumerateIndirectObjects().filter(([ref]) => ref.objectNumber >= firstNewNumber) }
}
