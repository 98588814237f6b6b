// Appends the Document Security Store (PAdES B-LT, ETSI EN 319 142-1 5.4) as one incremental
// update: catalog /DSS with /Certs, /OCSPs and /CRLs streams and a /VRI entry per signature.
// A DSS already there is extended, never rewritten in place: its streams are kept by reference
// and only values not already stored are added.
import { createHash } from 'node:crypto'
import { decodePDFRawStream, PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFContext, type PDFObject } from 'pdf-lib'
import { appendIncrementalUpdate } from '../pdf/append-incremental-update.ts'
import { openForUpdate, type OpenedForUpdate } from '../pdf/open-for-update.ts'
import type { ValidationData } from './validation-data.ts'

const N = (name: string) => PDFName.of(name)

/** `opened`: `pdf` already parsed (openForUpdate), when the caller goes on with a further update. */
export async function appendDss(pdf: Uint8Array, data: ValidationData, opened?: OpenedForUpdate): Promise<Buffer> {
  const { doc, previous, created } = opened ?? await openForUpdate(pdf)
  const { context } = doc

  const stored = doc.catalog.get(N('DSS'))
  const old = doc.catalog.lookupMaybe(N('DSS'), PDFDict)
  const dss = context.obj({}) as PDFDict
  const kinds = [['Certs', data.certificates], ['OCSPs', data.ocsps], ['CRLs', data.crls]] as const
  const refsByKind = kinds.map(([key, values]) => {
    const array = context.obj([]) as PDFArray
    const known = new Map<string, PDFRef>()
    for (const item of old?.lookupMaybe(N(key), PDFArray)?.asArray() ?? []) {
      const stream = item instanceof PDFRef ? context.lookup(item) : undefined
      if (!(item instanceof PDFRef) || !(stream instanceof PDFRawStream)) continue
      array.push(item)
      const bytes = decodedOrNull(stream)
      if (bytes) known.set(digestOf(bytes), item)
    }
    const refs = values.map((value) => {
      const key = digestOf(value)
      let ref = known.get(key)
      if (!ref) {
        ref = context.register(context.flateStream(value))
        known.set(key, ref)
        array.push(ref)
      }
      return ref
    })
    if (array.size() > 0) dss.set(N(key), array)
    return refs
  })

  const vri = context.obj({}) as PDFDict
  const oldVri = old?.lookupMaybe(N('VRI'), PDFDict)
  for (const [key, value] of oldVri?.entries() ?? []) vri.set(key, value)
  for (const entry of data.vri) {
    const item = context.obj({}) as PDFDict
    const pick = (refs: PDFRef[], indexes: number[]) => context.obj(indexes.map((i) => refs[i]!).filter(Boolean))
    if (entry.certificates.length) item.set(N('Cert'), pick(refsByKind[0]!, entry.certificates))
    if (entry.ocsps.length) item.set(N('OCSP'), pick(refsByKind[1]!, entry.ocsps))
    if (entry.crls.length) item.set(N('CRL'), pick(refsByKind[2]!, entry.crls))
    vri.set(N(entry.key), item)
  }
  if (vri.entries().length > 0) dss.set(N('VRI'), vri)
  dss.set(N('Type'), N('DSS'))

  const changed: Array<[PDFRef, PDFObject]> = []
  if (stored instanceof PDFRef) {
    // The catalog keeps pointing at the same object; the object gets a new version.
    changed.push([stored, dss])
  } else {
    doc.catalog.set(N('DSS'), context.register(dss))
    changed.push([previous.root, doc.catalog])
  }
  return appendIncrementalUpdate(pdf, { objects: [...changed, ...created()], previous, context: context as PDFContext })
}

function digestOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

function decodedOrNull(stream: PDFRawStream): Uint8Array | null {
  try {
    return decodePDFRawStream(stream).decode()
  } catch {
    return null
  }
}
