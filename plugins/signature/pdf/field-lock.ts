// FieldMDP (PDF 32000-1, 12.7.4.5 and 12.8.2.4): a signature field's /Lock names the fields its
// signature freezes, and the signature repeats it as a FieldMDP transform, so a validator knows
// that changing those fields' values after this signature is forbidden. Every approval signature
// the engine makes locks its own field: nobody can later swap what was signed there.
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFString, type PDFContext } from 'pdf-lib'

export interface FieldLock {
  action: 'Include'
  /** Fully qualified field names. */
  fields: string[]
}

/** The field's own lock: its signature freezes exactly itself. */
export function ownFieldLock(name: string): FieldLock {
  return { action: 'Include', fields: [name] }
}

/** `/Type /SigFieldLock` in the field's /Lock, `/Type /TransformParams` in the signature's reference. */
export function fieldLockParams(context: PDFContext, lock: FieldLock, type: 'SigFieldLock' | 'TransformParams'): PDFDict {
  const dict = context.obj({ Type: type, Action: lock.action }) as PDFDict
  dict.set(PDFName.of('Fields'), context.obj(lock.fields.map((name) => PDFHexString.fromText(name))))
  // FieldMDP's transform is versioned like DocMDP's.
  if (type === 'TransformParams') dict.set(PDFName.of('V'), PDFName.of('1.2'))
  return dict
}

/** A field's /Lock read back, when it is one the engine can honour (Include of named fields). */
export function readFieldLock(field: PDFDict): FieldLock | undefined {
  const lock = field.lookupMaybe(PDFName.of('Lock'), PDFDict)
  if (!lock || lock.lookupMaybe(PDFName.of('Action'), PDFName) !== PDFName.of('Include')) return undefined
  const names = lock.lookupMaybe(PDFName.of('Fields'), PDFArray)?.asArray().flatMap((item) => (item instanceof PDFString || item instanceof PDFHexString ? [item.decodeText()] : [])) ?? []
  return names.length > 0 ? { action: 'Include', fields: names } : undefined
}
