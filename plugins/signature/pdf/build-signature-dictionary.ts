// The signature dictionary (PDF 32000-1, 12.8.1) with fixed-width placeholders for /ByteRange
// and /Contents, and the DocMDP reference when the signature certifies the document.
import { PDFDict, PDFHexString, PDFName, PDFNumber, PDFString, type PDFContext, type PDFRef } from 'pdf-lib'
import type { SigningIdentity } from '../certificates/read-p12.ts'
import { cmsSize } from './pkcs7-signer.ts'
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
  if (options.certify) {
    const transformParams = context.obj({ Type: 'TransformParams', P: PDFNumber.of(options.certify.p), V: '1.2' })
    // DigestMethod names the hash of the reference (PDF 32000-1 table 253); SHA-256, as the CMS.
    const reference = context.obj({ Type: 'SigRef', TransformMethod: 'DocMDP', TransformParams: transformParams, DigestMethod: 'SHA256' })
    dict.set(PDFName.of('Reference'), context.obj([reference]))
  }
  return context.register(dict)
}

