// Reads the form's field tree (AcroForm /Fields, /Kids) without pdf-lib's high-level form API,
// which builds appearance machinery we do not want and does not expose object references.
import { PDFArray, PDFDict, PDFName, PDFRef, PDFString, PDFHexString, type PDFDocument } from 'pdf-lib'

export interface FieldNode {
  /** Fully qualified name: partial names joined with dots. */
  name: string
  ref: PDFRef
  dict: PDFDict
  isSignature: boolean
  isSigned: boolean
  /** The widget annotations showing this field (the field itself when they are merged). */
  widgets: Array<{ ref: PDFRef; dict: PDFDict }>
}

const N = {
  AcroForm: PDFName.of('AcroForm'),
  Fields: PDFName.of('Fields'),
  Kids: PDFName.of('Kids'),
  T: PDFName.of('T'),
  FT: PDFName.of('FT'),
  V: PDFName.of('V'),
  Sig: PDFName.of('Sig'),
  Subtype: PDFName.of('Subtype'),
  Widget: PDFName.of('Widget'),
}

export function listFields(doc: PDFDocument): FieldNode[] {
  const acroForm = doc.catalog.lookupMaybe(N.AcroForm, PDFDict)
  const fields = acroForm?.lookupMaybe(N.Fields, PDFArray)
  const result: FieldNode[] = []
  if (!fields) return result
  const seen = new Set<string>()
  const visit = (ref: PDFRef, parentName: string, inheritedType: PDFName | undefined) => {
    // A malformed file can make the tree a graph; visit each object once.
    if (seen.has(ref.toString())) return
    seen.add(ref.toString())
    const dict = doc.context.lookupMaybe(ref, PDFDict)
    if (!dict) return
    const partial = textOf(dict.get(N.T))
    const name = partial === undefined ? parentName : parentName ? `${parentName}.${partial}` : partial
    const type = dict.lookupMaybe(N.FT, PDFName) ?? inheritedType
    const kids = refsOf(dict.lookupMaybe(N.Kids, PDFArray))
    const childFields = kids.filter((kid) => doc.context.lookupMaybe(kid, PDFDict)?.has(N.T))
    for (const kid of childFields) visit(kid, name, type)
    if (childFields.length > 0) return
    const widgetKids = kids.flatMap((kid) => {
      const kidDict = doc.context.lookupMaybe(kid, PDFDict)
      return kidDict ? [{ ref: kid, dict: kidDict }] : []
    })
    const isMergedWidget = dict.lookupMaybe(N.Subtype, PDFName) === N.Widget
    result.push({
      name,
      ref,
      dict,
      isSignature: type === N.Sig,
      isSigned: dict.has(N.V),
      widgets: isMergedWidget ? [{ ref, dict }, ...widgetKids] : widgetKids,
    })
  }
  for (const ref of refsOf(fields)) visit(ref, '', undefined)
  return result
}

export function findSignedFields(doc: PDFDocument): FieldNode[] {
  return listFields(doc).filter((field) => field.isSignature && field.isSigned)
}

function refsOf(array: PDFArray | undefined): PDFRef[] {
  return array ? array.asArray().filter((item): item is PDFRef => item instanceof PDFRef) : []
}

function textOf(value: unknown): string | undefined {
  return value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : undefined
}
