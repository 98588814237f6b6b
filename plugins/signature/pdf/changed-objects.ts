// Which of a few known objects an edit changed: an incremental update must rewrite exactly those,
// and pdf-lib does not say which objects its helpers (addAnnot, addField) touched.
import { PDFRef, type PDFContext, type PDFObject } from 'pdf-lib'

export type Snapshot = Map<string, { ref: PDFRef; text: string }>

export function snapshot(context: PDFContext, refs: Array<PDFObject | undefined>): Snapshot {
  const taken: Snapshot = new Map()
  for (const ref of refs) {
    if (!(ref instanceof PDFRef) || taken.has(ref.toString())) continue
    const object = context.lookup(ref)
    if (object) taken.set(ref.toString(), { ref, text: object.toString() })
  }
  return taken
}

/** The objects of `before` whose serialization differs now. */
export function changedSince(context: PDFContext, before: Snapshot): Array<[PDFRef, PDFObject]> {
  const changed: Array<[PDFRef, PDFObject]> = []
  for (const { ref, text } of before.values()) {
    const object = context.lookup(ref)
    if (object && object.toString() !== text) changed.push([ref, object])
  }
  return changed
}
