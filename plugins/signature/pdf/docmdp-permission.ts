import { PDFArray, PDFDict, PDFName, PDFNumber, type PDFDocument } from 'pdf-lib'

/** The P value of the document's certification (catalog /Perms /DocMDP), or undefined if uncertified. */
export function docMdpPermission(doc: PDFDocument): number | undefined {
  const signature = doc.catalog.lookupMaybe(PDFName.of('Perms'), PDFDict)?.lookupMaybe(PDFName.of('DocMDP'), PDFDict)
  if (!signature) return undefined
  const references = signature.lookupMaybe(PDFName.of('Reference'), PDFArray)
  for (let i = 0; i < (references?.size() ?? 0); i++) {
    const reference = references!.lookupMaybe(i, PDFDict)
    if (reference?.lookupMaybe(PDFName.of('TransformMethod'), PDFName) !== PDFName.of('DocMDP')) continue
    const p = reference.lookupMaybe(PDFName.of('TransformParams'), PDFDict)?.lookupMaybe(PDFName.of('P'), PDFNumber)
    // PDF 32000-1, table 254: P defaults to 2.
    return p?.asNumber() ?? 2
  }
  return 2
}
