import { PDFDict, PDFName, PDFRef, type PDFDocument } from 'pdf-lib'

/**
 * The existing objects a new signature field (and stamps drawn into pages) may change: the
 * catalog, the form and its field list, each page, its annotation list and its content array.
 * pdf-lib does not say which objects its helpers touched; an incremental update snapshots these
 * before and writes again whichever changed (changed-objects.ts).
 */
export function objectsASignatureTouches(doc: PDFDocument, root: PDFRef): PDFRef[] {
  const refs = [root]
  const acroForm = doc.catalog.get(PDFName.of('AcroForm'))
  if (acroForm instanceof PDFRef) refs.push(acroForm)
  const fields = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict)?.get(PDFName.of('Fields'))
  if (fields instanceof PDFRef) refs.push(fields)
  for (const page of doc.getPages()) {
    refs.push(page.ref)
    for (const key of ['Annots', 'Contents']) {
      const value = page.node.get(PDFName.of(key))
      if (value instanceof PDFRef) refs.push(value)
    }
  }
  return refs
}
