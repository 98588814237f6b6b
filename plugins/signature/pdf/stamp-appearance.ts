// The visible stamp of a signature field: a form XObject the size of the widget that draws the
// image. A later signer's stamp must live here, in the widget's /AP /N, because changing page
// content after certification is a forbidden change under DocMDP.
import { PDFName, type PDFContext, type PDFRef } from 'pdf-lib'
import type { StampImage } from './embed-stamp-image.ts'
import { frameOf, uprightImageMatrix, type QuarterTurn } from './page-frame.ts'
import { fitImageInBox } from './stamp-geometry.ts'

/**
 * `size` is the widget's /Rect size in user space. A widget's appearance turns with its page
 * (/Rotate), so the image is drawn turned back: the widget is a small page of its own, framed
 * by its rectangle, and gets the same upright matrix as a stamp drawn into page content.
 */
export function createStampAppearance(context: PDFContext, image: StampImage, size: { width: number; height: number }, rotate: QuarterTurn = 0): PDFRef {
  const frame = frameOf({ x: 0, y: 0, width: size.width, height: size.height }, rotate)
  const placed = fitImageInBox(image, { x: 0, y: 0, width: frame.width, height: frame.height })
  const operators = `q ${uprightImageMatrix(frame, placed).map(num).join(' ')} cm /Stamp Do Q`
  // Left uncompressed: deflating these 60 bytes cost more than a tenth of a one-page signature
  // (pako sets up its 64 KiB window each time) and saved nothing.
  const stream = context.stream(operators, {
    Type: 'XObject',
    Subtype: 'Form',
    BBox: [0, 0, num(size.width), num(size.height)],
    Resources: { XObject: { Stamp: image.ref } },
  })
  return context.register(stream)
}

export function appearanceDictionary(context: PDFContext, normal: PDFRef) {
  const ap = context.obj({})
  ap.set(PDFName.of('N'), normal)
  return ap
}

function num(n: number): number {
  // Math.round leaves -0, which would be written as "-0".
  return Math.round(n * 1000) / 1000 + 0
}
