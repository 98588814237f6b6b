// The visible stamp of a signature field: a form XObject the size of the widget that draws the
// image. A later signer's stamp must live here, in the widget's /AP /N, because changing page
// content after certification is a forbidden change under DocMDP.
import { PDFName, type PDFContext, type PDFImage, type PDFRef } from 'pdf-lib'
import { fitImageInBox } from './stamp-geometry.ts'

export function createStampAppearance(context: PDFContext, image: PDFImage, size: { width: number; height: number }): PDFRef {
  const placed = fitImageInBox(image, { x: 0, y: 0, width: size.width, height: size.height })
  const operators = `q ${num(placed.width)} 0 0 ${num(placed.height)} ${num(placed.x)} ${num(placed.y)} cm /Stamp Do Q`
  const stream = context.flateStream(operators, {
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
  return Math.round(n * 1000) / 1000
}
