import * as mupdf from 'mupdf'
import { ERR_PAGE_NOT_FOUND } from '../errors.ts'
import { encodePng } from './encode-png.ts'
import { openPdf } from './page-geometry.ts'
import { drawUnsignedFieldsAsTheyAre } from './unsigned-fields-as-drawn.ts'

/** One page as displayed (CropBox, /Rotate, /UserUnit: mupdf's page bounds) as PNG at `dpi`, white background, no alpha. */
export function rasterizePage(bytes: Uint8Array, page: number, dpi: number): Uint8Array {
  const doc = openPdf(bytes)
  if (!Number.isInteger(page) || page < 1 || page > doc.countPages()) throw ERR_PAGE_NOT_FOUND(`The document has no page ${page}`)
  drawUnsignedFieldsAsTheyAre(doc)
  const scale = dpi / 72
  const pixmap = doc.loadPage(page - 1).toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true)
  try {
    return encodePng(pixmap.getPixels(), pixmap.getWidth(), pixmap.getHeight(), pixmap.getStride())
  } finally {
    pixmap.destroy()
    doc.destroy()
  }
}
