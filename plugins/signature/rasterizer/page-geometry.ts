import * as mupdf from 'mupdf'
import { ERR_PAGE_GEOMETRY_UNSUPPORTED } from '../errors.ts'
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

function box(page: mupdf.PDFPage, name: 'MediaBox' | 'CropBox'): number[] | null {
  const value = page.getObject().getInheritable(name)
  if (!value.isArray() || value.length !== 4) return null
  return [0, 1, 2, 3].map((i) => value.get(i).asNumber())
}

/**
 * Page sizes in points. A page with /Rotate, or whose media or crop box does not start at the
 * origin, is refused: a box drawn on its image would not land where the user drew it once the
 * coordinates are used as PDF user space. Refusing says so plainly instead of stamping elsewhere.
 */
export function pageGeometry(doc: mupdf.PDFDocument): PageSize[] {
  const sizes: PageSize[] = []
  const count = doc.countPages()
  for (let i = 0; i < count; i++) {
    const page = doc.loadPage(i)
    const rotate = page.getObject().getInheritable('Rotate')
    const degrees = rotate.isNumber() ? rotate.asNumber() : 0
    if (degrees % 360 !== 0) throw ERR_PAGE_GEOMETRY_UNSUPPORTED(`Page ${i + 1} is rotated by ${degrees}°; save the sample unrotated`)
    const media = box(page, 'MediaBox')
    const crop = box(page, 'CropBox') ?? media
    for (const [name, b] of [['media', media], ['crop', crop]] as const) {
      if (b && (Math.min(b[0]!, b[2]!) !== 0 || Math.min(b[1]!, b[3]!) !== 0)) {
        throw ERR_PAGE_GEOMETRY_UNSUPPORTED(`Page ${i + 1} has a ${name} box not at the origin ([${b.join(' ')}])`)
      }
    }
    const [x0, y0, x1, y1] = page.getBounds()
    sizes.push({ page: i + 1, width: Math.round((x1 - x0) * 100) / 100, height: Math.round((y1 - y0) * 100) / 100 })
  }
  return sizes
}
