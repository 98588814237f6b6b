// Fixed metadata, so the same inputs give the same bytes (a sample's page images can be cached
// by path and mtime only if re-rendering it is not observable). Epoch start of 2000 is arbitrary.
export const FIXED_PDF_DATE = new Date('2000-01-01T00:00:00Z')

/** Rewrites a PDF with fixed dates and producer; everything else is kept as drawn. */
export async function withFixedMetadata(bytes: Uint8Array, producer: string): Promise<Uint8Array> {
  // Imported on the first render, not at start: pdf-lib is ~10 MiB of RSS an app that renders
  // nothing (or not yet) need not carry.
  const { PDFDocument } = await import('pdf-lib')
  const document = await PDFDocument.load(bytes, { updateMetadata: false })
  document.setCreationDate(FIXED_PDF_DATE)
  document.setModificationDate(FIXED_PDF_DATE)
  document.setProducer(producer)
  document.setCreator(producer)
  return document.save({ useObjectStreams: false })
}
