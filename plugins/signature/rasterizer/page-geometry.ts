import * as mupdf from 'mupdf'
import { ERR_PDF_INVALID } from '../pdf/errors.ts'

export interface PageSize {
  /** 1-based */
  page: number
  /** PDF points */
  width: number
  height: number
}

export function openPdf(bytes: Uint8Array): mupdf.PDFDocument {
  let doc: mupdf.Document
  try {
    doc = mupdf.Document.openDocument(bytes, 'application/pdf')
  } catch (error) {
    throw ERR_PDF_INVALID(`The file is not a PDF that can be read (${(error as Error).message})`)
  }
  const pdf = doc.asPDF()
  if (!pdf) throw ERR_PDF_INVALID()
  return pdf
}

/**
 * Page sizes in points, as displayed: mupdf's page bounds are the CropBox clipped to the MediaBox,
 * turned by /Rotate and scaled by /UserUnit, the same frame the engine stamps in (pdf/page-frame.ts)
 * and the same area rasterizePage draws, so a box drawn on the image lands where it was drawn.
 */
export function pageGeometry(doc: mupdf.PDFDocument): PageSize[] {
  const sizes: PageSize[] = []
  const count = doc.countPages()
  for (let i = 0; i < count; i++) {
    const page = doc.loadPage(i)
    const [x0, y0, x1, y1] = page.getBounds()
    sizes.push({ page: i + 1, width: Math.round((x1 - x0) * 100) / 100, height: Math.round((y1 - y0) * 100) / 100 })
  }
  return sizes
}
