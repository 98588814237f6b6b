// Rewrites an incoming PDF once, before its first signature, into the plainest form: classic
// cross-reference table, no object streams. Incremental updates can then always be written as
// classic sections, and pdf-lib's object numbering cannot collide with objects it did not see.
import { createHash } from 'node:crypto'
import { PDFDocument } from 'pdf-lib'
import { findSignedFields } from './signature-fields.ts'
import { ERR_PDF_ALREADY_SIGNED } from './errors.ts'
import { loadPdf } from './load-pdf.ts'
import { nextFileIdentifier } from './file-identifier.ts'

export async function normalizePdf(bytes: Uint8Array): Promise<Uint8Array> {
  return saveNormalized(await loadForRewrite(bytes), createHash('sha256').update(bytes).digest())
}

/** Loads for a full rewrite, which is only allowed while nobody has signed. */
export async function loadForRewrite(bytes: Uint8Array): Promise<PDFDocument> {
  const doc = await loadPdf(bytes)
  if (findSignedFields(doc).length > 0) throw ERR_PDF_ALREADY_SIGNED()
  return doc
}

/** @param versionSeed What makes this version (the source's hash and what is done to it): the trailer /ID is derived from it. */
export function saveNormalized(doc: PDFDocument, versionSeed: Buffer): Promise<Uint8Array> {
  // pdf-lib writes the /ID it parsed, or none: each save gets this version's own.
  doc.context.trailerInfo.ID = nextFileIdentifier(doc.context, doc.context.trailerInfo.ID, versionSeed)
  // updateFieldAppearances would let pdf-lib touch form fields it does not own.
  // objectsPerTick: Infinity: no setTimeout(0) every 50 objects. This save is reached only from
  // the PDF worker tasks (normalizePdf, signDocument, freezeDocument in pdf-worker-tasks.ts; no
  // route imports this module), where a yield buys nothing; on the main thread (tests, scripts)
  // it just does not yield while writing.
  return doc.save({ useObjectStreams: false, updateFieldAppearances: false, objectsPerTick: Infinity })
}
