// The ETSI EN 319 102-1 vocabulary of a signature's validation (as EU DSS and pyHanko report it):
// an indication, a sub-indication saying why, the time of the validation, and the chain with each
// certificate's validity and revocation status. Mapped from what judge-signature.ts finds; the
// report's own verdict stays, and is stricter where the standard leaves PDF changes open.
import type { X509Certificate } from 'node:crypto'
import type { RevocationSource } from './verification-report.ts'

export type Indication = 'TOTAL-PASSED' | 'INDETERMINATE' | 'TOTAL-FAILED'

/** EN 319 102-1 table 5, the values this verifier gives. */
export type SubIndication =
  // TOTAL-FAILED
  | 'FORMAT_FAILURE' | 'HASH_FAILURE' | 'SIG_CRYPTO_FAILURE' | 'REVOKED' | 'EXPIRED' | 'NOT_YET_VALID'
  // INDETERMINATE
  | 'NO_SIGNING_CERTIFICATE_FOUND' | 'NO_CERTIFICATE_CHAIN_FOUND' | 'CHAIN_CONSTRAINTS_FAILURE' | 'CRYPTO_CONSTRAINTS_FAILURE'
  | 'SIG_CONSTRAINTS_FAILURE' | 'REVOKED_NO_POE' | 'OUT_OF_BOUNDS_NO_POE' | 'TRY_LATER'

export interface Finding {
  indication: Exclude<Indication, 'TOTAL-PASSED'>
  subIndication: SubIndication
}

export const failed = (subIndication: SubIndication): Finding => ({ indication: 'TOTAL-FAILED', subIndication })
export const indeterminate = (subIndication: SubIndication): Finding => ({ indication: 'INDETERMINATE', subIndication })

export interface ChainCertificateReport {
  subject: string
  issuer: string
  serial: string
  notBefore: string
  notAfter: string
  /** At the time the validation is made for: the proven signing time, else the validation time. */
  validity: 'valid' | 'expired' | 'not-yet-valid'
  /** Only the signer's certificate is checked for revocation; a CA's status is 'not-checked', a trust anchor's too (trusted by configuration). */
  revocation: { status: 'good' | 'revoked' | 'unknown' | 'not-checked'; source: RevocationSource | null; revokedAt: string | null }
  trustAnchor: boolean
}

export interface SignatureValidation {
  indication: Indication
  /** Why the indication is not TOTAL-PASSED; null when it is. */
  subIndication: SubIndication | null
  /** When this validation was made (ISO 8601). */
  validationTime: string
  /** The earliest time a proof of existence (a valid timestamp) gives the signature; null without one. */
  bestSignatureTime: string | null
  /** The signer's certificate first; the trust anchor last when the chain is trusted. */
  chain: ChainCertificateReport[]
}

/** The first failure decides; without one, the first indeterminate finding; without any, TOTAL-PASSED. */
export function conclude(findings: Finding[]): Pick<SignatureValidation, 'indication' | 'subIndication'> {
  const decisive = findings.find((f) => f.indication === 'TOTAL-FAILED') ?? findings[0]
  return decisive ? { indication: decisive.indication, subIndication: decisive.subIndication } : { indication: 'TOTAL-PASSED', subIndication: null }
}

export interface ChainInput {
  chain: X509Certificate[]
  trusted: boolean
  at: Date
  signerRevocation: { status: 'good' | 'revoked'; revokedAt?: Date } | undefined
  revocationSource: RevocationSource | null
  nameOf: (name: string) => string
}

export function chainReport({ chain, trusted, at, signerRevocation, revocationSource, nameOf }: ChainInput): ChainCertificateReport[] {
  return chain.map((certificate, i) => {
    const from = new Date(certificate.validFrom)
    const to = new Date(certificate.validTo)
    const trustAnchor = trusted && i === chain.length - 1
    const revocation: ChainCertificateReport['revocation'] = i === 0 && !trustAnchor
      ? { status: signerRevocation?.status ?? 'unknown', source: signerRevocation ? revocationSource : null, revokedAt: signerRevocation?.revokedAt?.toISOString() ?? null }
      : { status: 'not-checked', source: null, revokedAt: null }
    return {
      subject: nameOf(certificate.subject),
      issuer: nameOf(certificate.issuer),
      serial: certificate.serialNumber,
      notBefore: from.toISOString(),
      notAfter: to.toISOString(),
      validity: at < from ? 'not-yet-valid' : at > to ? 'expired' : 'valid',
      revocation,
      trustAnchor,
    }
  })
}
