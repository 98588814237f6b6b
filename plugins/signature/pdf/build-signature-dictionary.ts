// The signature dictionary (PDF 32000-1, 12.8.1) with fixed-width placeholders for /ByteRange
// and /Contents, and the DocMDP reference when the signature certifies the document.
import { PDFDict, PDFHexString, PDFName, PDFNumber, PDFString, type PDFContext, type PDFRef } from 'pdf-lib'
import type { SigningIdentity } from '../certificates/read-p12.ts'
import { byteRangePlaceholder, contentsPlaceholder } from './signature-placeholder.ts'

/** DocMDP permissions: 1 no changes, 2 form filling and signing, 3 also annotations. */
export type DocMdpPermission = 1 | 2 | 3

export interface SignatureDictionaryOptions {
  identity: SigningIdentity
  signingTime: Date
  reason?: string
  name?: string
  location?: string
  certify?: { p: DocMdpPermission }
}

export function buildSignatureDictionary(context: PDFContext, options: SignatureDictionaryOptions): PDFRef {
  const dict = context.obj({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    SubFilter: 'adbe.pkcs7.detached',
  }) as PDFDict
  // /Contents must follow /ByteRange: the placeholder filler finds it by looking after it.
  dict.set(PDFName.of('ByteRange'), byteRangePlaceholder(context))
  dict.set(PDFName.of('Contents'), contentsPlaceholder(options.identity))
  dict.set(PDFName.of('M'), PDFString.fromDate(options.signingTime))
  // Hex text strings carry any Unicode name without escaping rules to get wrong.
  if (options.name) dict.set(PDFName.of('Name'), PDFHexString.fromText(options.name))
  if (options.reason) dict.set(PDFName.of('Reason'), PDFHexString.fromText(options.reason))
  if (options.location) dict.set(PDFName.of('Location'), PDFHexString.fromText(options.location))
  if (options.certify) {
    const transformParams = context.obj({ Type: 'TransformParams', P: PDFNumber.of(options.certify.p), V: '1.2' })
    const reference = context.obj({ Type: 'SigRef', TransformMethod: 'DocMDP', TransformParams: transformParams })
    dict.set(PDFName.of('Reference'), context.obj([reference]))
  }
  return context.register(dict)
}

