// The validation data a document carries in its /DSS (PAdES B-LT): certificates, OCSP responses
// and CRLs, decoded from their streams.
import type { X509Certificate } from 'node:crypto'
import { decodePDFRawStream, PDFArray, PDFDict, PDFName, PDFRawStream, type PDFDocument } from 'pdf-lib'
import { withDecodeBudget } from '../pdf/decode-budget.ts'
import { pdfLimits } from '../pdf/pdf-limits.ts'
import { CertificateReader } from './certificate-reader.ts'

export interface DssContents {
  certificates: X509Certificate[]
  ocsps: Buffer[]
  crls: Buffer[]
}

export async function readDss(doc: PDFDocument, reader: CertificateReader = new CertificateReader()): Promise<DssContents> {
  const dss = doc.catalog.lookupMaybe(PDFName.of('DSS'), PDFDict)
  const streams = (key: string) => (dss?.lookupMaybe(PDFName.of(key), PDFArray)?.asArray() ?? [])
    .map((item) => doc.context.lookup(item))
    .filter((item): item is PDFRawStream => item instanceof PDFRawStream)
  const decode = (key: string) => withDecodeBudget(pdfLimits().maxDecodedBytes, async () => streams(key).flatMap((stream) => {
    try {
      return [Buffer.from(decodePDFRawStream(stream).decode())]
    } catch {
      return []
    }
  }))
  const certificates = (await decode('Certs')).flatMap((der) => {
    try {
      return [reader.read(der)]
    } catch {
      return []
    }
  })
  return { certificates, ocsps: await decode('OCSPs'), crls: await decode('CRLs') }
}
