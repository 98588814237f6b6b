// What a document's validation data must cover (PAdES B-LT): for every signature and document
// timestamp, the certificates it carries (the signer's and its signature timestamp's TSA's) and
// the key of its /VRI entry. Pure, for a PDF worker: the revocation answers are gathered on the
// main thread, which holds the application CA's register.
import { createHash } from 'node:crypto'
import { loadPdf } from '../pdf/load-pdf.ts'
import { docMdpPermission } from '../pdf/docmdp-permission.ts'
import { withSignatureContentsSkipped } from '../pdf/signature-contents-skipped.ts'
import { raw } from '../pdf/read-der.ts'
import { attribute, findSignerCertificate, OID, parseSignedData } from '../verify/cms.ts'
import { findSignatures } from '../verify/pdf-signatures.ts'
import { readDss } from '../verify/dss-contents.ts'

export interface SignatureNeeds {
  /** /VRI key: uppercase hex SHA-1 of the signature's /Contents value (ETSI EN 319 142-1, 5.4.2.2). */
  vriKey: string
  kind: 'signature' | 'document-timestamp'
  /** DER of every certificate the signature and its timestamp token carry, signer first. */
  certificates: Uint8Array[]
}

export interface ValidationNeeds {
  signatures: SignatureNeeds[]
  /** The newest document timestamp: the one an archive renewal must be made before. */
  lastDocumentTimestamp: { tsaNotAfter: string | null } | null
  /** DocMDP P of the certification, if certified: P=1 allows no DSS nor timestamp. */
  permission: number | null
  /** SHA-256 fingerprints of the certificates the document's DSS already holds. */
  dssCertificates: string[]
}

export async function collectValidationNeeds(pdf: Uint8Array): Promise<ValidationNeeds> {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
  const doc = await loadPdf(withSignatureContentsSkipped(bytes))
  const signatures: SignatureNeeds[] = []
  let lastDocumentTimestamp: ValidationNeeds['lastDocumentTimestamp'] = null
  for (const found of findSignatures(doc, bytes)) {
    if (!found.contents) continue
    const isTimestamp = found.type === 'DocTimeStamp' || found.subFilter === 'ETSI.RFC3161'
    const certificates: Uint8Array[] = []
    let tsaNotAfter: string | null = null
    try {
      const signedData = parseSignedData(found.contents)
      certificates.push(...signedData.certificates.map((c) => new Uint8Array(c.raw)))
      const tsa = isTimestamp ? findSignerCertificate(signedData.signerInfo, signedData.certificates) : undefined
      if (tsa) tsaNotAfter = new Date(tsa.validTo).toISOString()
      const token = attribute(signedData.signerInfo.unsignedAttributes, OID.timeStampToken)
      if (token) certificates.push(...parseSignedData(raw(token)).certificates.map((c) => new Uint8Array(c.raw)))
    } catch {
      // A value that is not a readable CMS has nothing to validate; the verifier says why.
      continue
    }
    signatures.push({ vriKey: vriKey(bytes, found.byteRange!), kind: isTimestamp ? 'document-timestamp' : 'signature', certificates })
    // findSignatures sorts by position in the file: the last one seen is the newest.
    if (isTimestamp) lastDocumentTimestamp = { tsaNotAfter }
  }
  const dssCertificates = (await readDss(doc)).certificates.map((c) => c.fingerprint256)
  return { signatures, lastDocumentTimestamp, permission: docMdpPermission(doc) ?? null, dssCertificates }
}

/** Over the whole /Contents string, padding included, as PDFBox keys it: what the file holds. */
export function vriKey(bytes: Buffer, byteRange: number[]): string {
  const hex = bytes.toString('latin1', byteRange[1]! + 1, byteRange[2]! - 1).replace(/\s+/g, '')
  return createHash('sha1').update(Buffer.from(hex, 'hex')).digest('hex').toUpperCase()
}
