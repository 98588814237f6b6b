// The signature dictionary (PDF 32000-1, 12.8.1) with fixed-width placeholders for /ByteRange
// and /Contents, and the DocMDP reference when the signature certifies the document.
import { PDFDict, PDFHexString, PDFName, PDFNumber, PDFString, type PDFContext, type PDFObject, type PDFRef } from 'pdf-lib'
import type { SigningIdentity } from '../certificates/read-p12.ts'
import { cmsSize } from './pkcs7-signer.ts'
import { byteRangePlaceholder, contentsPlaceholder } from './signature-placeholder.ts'
import { fieldLockParams, type FieldLock } from './field-lock.ts'

/** DocMDP permissions: 1 no changes, 2 form filling and signing, 3 also annotations. */
export type DocMdpPermission = 1 | 2 | 3

export interface SignatureDictionaryOptions {
  identity: SigningIdentity
  signingTime: Date
  reason?: string
  name?: string
  location?: string
  certify?: { p: DocMdpPermission }
  /** The field's /Lock: the signature then carries the FieldMDP reference that enforces it (PDF 32000-1, 12.8.2.4). */
  lock?: FieldLock
}

export function buildSignatureDictionary(context: PDFContext, options: SignatureDictionaryOptions): PDFRef {
  const dict = context.obj({
    Type: 'Sig',
    Filter: 'Adobe.PPKLite',
    // PAdES (ETSI EN 319 142-1): a CAdES signature (pkcs7-signer.ts), detached from the bytes it covers.
    SubFilter: 'ETSI.CAdES.detached',
  }) as PDFDict
  // /Contents must follow /ByteRange: the placeholder filler finds it by looking after it.
  dict.set(PDFName.of('ByteRange'), byteRangePlaceholder(context))
  // Sized for the signature without a timestamp; finishSignature() resizes it before writing.
  dict.set(PDFName.of('Contents'), contentsPlaceholder(cmsSize(options.identity) + 64))
  // The claimed signing time: PAdES keeps it here, not in a CMS signing-time attribute.
  dict.set(PDFName.of('M'), PDFString.fromDate(options.signingTime))
  // Hex text strings carry any Unicode name without escaping rules to get wrong.
  if (options.name) dict.set(PDFName.of('Name'), PDFHexString.fromText(options.name))
  if (options.reason) dict.set(PDFName.of('Reason'), PDFHexString.fromText(options.reason))
  if (options.location) dict.set(PDFName.of('Location'), PDFHexString.fromText(options.location))
  const references: PDFObject[] = []
  if (options.certify) {
    const transformParams = context.obj({ Type: 'TransformParams', P: PDFNumber.of(options.certify.p), V: '1.2' })
    references.push(signatureReference(context, 'DocMDP', transformParams))
  }
  if (options.lock) references.push(signatureReference(context, 'FieldMDP', fieldLockParams(context, options.lock, 'TransformParams')))
  if (references.length > 0) dict.set(PDFName.of('Reference'), context.obj(references))
  return context.register(dict)
}


function signatureReference(context: PDFContext, method: 'DocMDP' | 'FieldMDP', transformParams: PDFDict): PDFDict {
  // DigestMethod names the hash of the reference (PDF 32000-1 table 253); SHA-256, as the CMS.
  return context.obj({ Type: 'SigRef', TransformMethod: method, TransformParams: transformParams, DigestMethod: 'SHA256' })
}
