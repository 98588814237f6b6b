// The entries our signing reads or writes, checked for the types PDF 32000-1 gives them before any
// of it runs. pdf-lib would otherwise fail deep inside with "Expected instance of PDFArray", after
// work was done; here the file is refused up front, naming what is wrong.
import { PDFArray, PDFDict, PDFName, PDFNumber, type PDFDocument, type PDFObject } from 'pdf-lib'
import { ERR_PDF_INVALID } from './errors.ts'

const N = {
  AcroForm: PDFName.of('AcroForm'),
  Fields: PDFName.of('Fields'),
  MediaBox: PDFName.of('MediaBox'),
  CropBox: PDFName.of('CropBox'),
  Annots: PDFName.of('Annots'),
  Resources: PDFName.of('Resources'),
}

export function checkDocumentStructure(doc: PDFDocument): void {
  const { context } = doc
  const resolve = (value: PDFObject | undefined) => (value === undefined ? undefined : context.lookup(value))
  const acroForm = resolve(doc.catalog.get(N.AcroForm))
  if (acroForm !== undefined) {
    if (!(acroForm instanceof PDFDict)) throw ERR_PDF_INVALID('The document\'s /AcroForm is not a dictionary')
    const fields = resolve(acroForm.get(N.Fields))
    if (fields !== undefined && !(fields instanceof PDFArray)) throw ERR_PDF_INVALID('The document\'s /AcroForm /Fields is not an array')
  }
  doc.getPages().forEach((page, index) => {
    const where = `Page ${index + 1}`
    const isRectangle = (value: PDFObject | undefined) =>
      value instanceof PDFArray && value.size() === 4 && value.asArray().every((n) => resolve(n) instanceof PDFNumber)
    if (!isRectangle(resolve(page.node.getInheritableAttribute(N.MediaBox)))) throw ERR_PDF_INVALID(`${where} has no valid /MediaBox (an array of four numbers)`)
    const crop = resolve(page.node.getInheritableAttribute(N.CropBox))
    if (crop !== undefined && !isRectangle(crop)) throw ERR_PDF_INVALID(`${where} has a /CropBox that is not an array of four numbers`)
    const annots = resolve(page.node.get(N.Annots))
    if (annots !== undefined && !(annots instanceof PDFArray)) throw ERR_PDF_INVALID(`${where}'s /Annots is not an array`)
    const resources = resolve(page.node.getInheritableAttribute(N.Resources))
    if (resources !== undefined && !(resources instanceof PDFDict)) throw ERR_PDF_INVALID(`${where}'s /Resources is not a dictionary`)
  })
}
