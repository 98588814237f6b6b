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

/**
 * For a document nobody signed yet: its parse, and the start of an update of its own bytes where
 * those bytes can take one, that is where its newest cross-reference section leads readers to its
 * objects. `opened` is null otherwise (no readable trailer, offsets that miss their objects): the
 * caller rewrites the file whole, which repairs it.
 */
export async function openIfUpdatable(pdf: Uint8Array): Promise<{ doc: PDFDocument; opened: OpenedForUpdate | null }> {
  const doc = await loadPdf(pdf)
  let previous: TrailerInfo
  try {
    previous = readLastTrailer(pdf, doc.context)
  } catch {
    return { doc, opened: null }
  }
  return { doc, opened: crossReferenceLeadsToObjects(pdf, previous) ? startingAt(doc, pdf) : null }
}

/**
 * A classic table's in-use entries each point at "N G obj" (a cross-reference stream was read by
 * pdf-lib itself, and a broken one fails the parse). Readers that follow a broken table repair the
 * file each in their own way, and a signature over such bytes could read differently in each.
 */
function crossReferenceLeadsToObjects(pdf: Uint8Array, previous: TrailerInfo): boolean {
  if (previous.crossReference === 'stream') return true
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
  const end = text.indexOf('trailer', previous.startxref, 'latin1')
  if (end < 0) return false
  const lines = text.toString('latin1', previous.startxref + 4, end).split(/\r\n|\r|\n/).map((l) => l.trim()).filter(Boolean)
  let number = 0
  for (const line of lines) {
    const subsection = /^(\d+) (\d+)$/.exec(line)
    if (subsection) { number = Number(subsection[1]); continue }
    const entry = /^(\d{10}) (\d{5}) ([nf])$/.exec(line)
    if (!entry) return false
    if (entry[3] === 'n') {
      const at = Number(entry[1])
      const head = text.toString('latin1', at, at + 40)
      if (!new RegExp(`^\\s*${number}\\s+${Number(entry[2])}\\s+obj\\b`).test(head)) return false
    }
    number++
  }
  return true
}

function startingAt(doc: PDFDocument, pdf: Uint8Array): OpenedForUpdate {
  const previous = readLastTrailer(pdf, doc.context)
  doc.context.largestObjectNumber = Math.max(doc.context.largestObjectNumber, previous.size - 1)
  const firstNewNumber = doc.context.largestObjectNumber + 1
  return { doc, previous, created: () => doc.context.enumerateIndirectObjects().filter(([ref]) => ref.objectNumber >= firstNewNumber) }
}
