// mupdf's DocMDP check (validateChangeHistory) accepts no change to an object outside the form
// after a certification, the catalog included, so a /DSS added to the catalog later reads as a
// forbidden change (measured: 1), though PAdES and ISO 32000-2 allow it. The certified revision
// therefore already holds the catalog's /DSS as a reference to an object number no revision
// defines yet: a reference to an undefined object is null (PDF 32000-1, 7.3.10), and the first
// DSS is then a new object, which every checker accepts.
import { PDFName, type PDFDocument } from 'pdf-lib'

export function reserveDssSlot(doc: PDFDocument): void {
  if (doc.catalog.has(PDFName.of('DSS'))) return
  doc.catalog.set(PDFName.of('DSS'), doc.context.nextRef())
}
