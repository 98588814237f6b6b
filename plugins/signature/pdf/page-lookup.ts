import type { PDFDocument, PDFPage } from 'pdf-lib'
import { ERR_PAGE_OUT_OF_RANGE } from './errors.ts'

/** Pages are numbered from 1 everywhere outside this engine, as people count them. */
export function pageAt(doc: PDFDocument, page: number): PDFPage {
  const count = doc.getPageCount()
  if (!Number.isInteger(page) || page < 1 || page > count) {
    throw ERR_PAGE_OUT_OF_RANGE(`Page ${page} does not exist; the PDF has ${count} page(s)`)
  }
  return doc.getPage(page - 1)
}
