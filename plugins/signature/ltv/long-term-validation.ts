// B-LT and B-LTA for a signed document: the worker lists what must be validated, this thread
// gathers the answers (the application CA's in-process), the worker appends the /DSS and a
// document timestamp. Bytes in, bytes out: the caller decides where the result is stored.
import { X509Certificate } from 'node:crypto'
import type { ApplicationPki } from '../pki/application-pki.ts'
import type { PdfWorkerPool } from '../pdf/pdf-worker-pool.ts'
import type { OnlineOptions } from '../verify/online-revocation.ts'
import type { ValidationNeeds } from './collect-validation-needs.ts'
import { ERR_LTV_NOT_APPLICABLE } from './errors.ts'
import { gatherValidationData } from './gather-validation-data.ts'

export interface ExtendedDocument {
  pdf: Uint8Array
  /** A document timestamp was added (false when timestamps are off: B-LT only). */
  documentTimestamp: boolean
  /** Certificates whose revocation status could not be obtained. */
  missing: string[]
}

export interface LongTermValidation {
  needs(pdf: Uint8Array): Promise<ValidationNeeds>
  /** Appends a DSS covering every signature and timestamp, then a document timestamp. */
  extend(pdf: Uint8Array): Promise<ExtendedDocument>
}

export interface LongTermValidationOptions {
  pdf: Pick<PdfWorkerPool, 'run'>
  pki: Pick<ApplicationPki, 'caDer' | 'ocsp' | 'crl'>
  /** PEM texts of other CAs whose OCSP responders and CRLs may be asked. */
  trustAnchors?: string[]
  /** Bounds for asking them; null or absent: never go online. */
  online?: OnlineOptions | null
}

export function createLongTermValidation(options: LongTermValidationOptions): LongTermValidation {
  const trustAnchors = (options.trustAnchors ?? []).flatMap(certificatesIn)
  const needs = (pdf: Uint8Array) => options.pdf.run('collectValidationNeeds', pdf)
  return {
    needs,
    async extend(pdf) {
      const found = await needs(pdf)
      if (found.signatures.length === 0) throw ERR_LTV_NOT_APPLICABLE('The document carries no signature whose validation data could be added')
      if (found.permission === 1) throw ERR_LTV_NOT_APPLICABLE('The document is certified with "no changes allowed"')
      // mupdf counts any change to an existing DSS after a certification as forbidden (a new one,
      // in the reserved slot, it accepts). So when the DSS already holds every certificate (an
      // archive renewal by the same TSA), only the new document timestamp is appended.
      const stored = new Set(found.dssCertificates)
      const covered = stored.size > 0 && found.signatures.every((s) => s.certificates.every((der) => stored.has(new X509Certificate(der).fingerprint256)))
      if (covered) {
        const result = await options.pdf.run('appendLongTermValidation', pdf, { certificates: [], ocsps: [], crls: [], vri: [] }, { permission: found.permission })
        return { pdf: result.pdf, documentTimestamp: result.documentTimestamp, missing: [] }
      }
      const { missing, ...data } = await gatherValidationData(found.signatures, {
        applicationCa: options.pki.caDer,
        ocsp: (request) => options.pki.ocsp(request),
        crl: () => options.pki.crl(),
        trustAnchors,
        online: options.online ?? null,
      })
      const result = await options.pdf.run('appendLongTermValidation', pdf, data, { permission: found.permission })
      return { pdf: result.pdf, documentTimestamp: result.documentTimestamp, missing }
    },
  }
}

function certificatesIn(pem: string): X509Certificate[] {
  return (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map((block) => new X509Certificate(block))
}
