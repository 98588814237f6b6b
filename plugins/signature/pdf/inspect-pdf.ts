// A read-only summary of a PDF for tests and for other modules (the designer needs page sizes
// in points; the signing flow needs to know which fields are still empty).
import { docMdpPermission } from './docmdp-permission.ts'
import { loadPdf } from './load-pdf.ts'
import { pageFrame } from './page-frame.ts'
import { listFields } from './signature-fields.ts'

export interface PdfSummary {
  pageCount: number
  /** In points, as displayed (page-frame.ts): the size every placement on the page is checked against. */
  pages: Array<{ width: number; height: number }>
  /** The DocMDP P value when the document is certified. */
  docMdp?: number
  signatureFields: Array<{ name: string; signed: boolean }>
}

export async function inspectPdf(bytes: Uint8Array): Promise<PdfSummary> {
  const doc = await loadPdf(bytes)
  const pages = doc.getPages().map((page) => {
    const { width, height } = pageFrame(page)
    return { width, height }
  })
  return {
    pageCount: pages.length,
    pages,
    docMdp: docMdpPermission(doc),
    signatureFields: listFields(doc)
      .filter((field) => field.isSignature)
      .map((field) => ({ name: field.name, signed: field.isSigned })),
  }
}
