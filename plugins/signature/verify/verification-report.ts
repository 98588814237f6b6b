// The report POST /api/verify answers: a contract clients rely on (issue 19). Fields may be
// added; none may be renamed or change meaning.
import type { SignatureValidation } from './etsi-validation.ts'

export interface Change {
  revision: number
  /** "12 0 R" */
  object: string
  /** page-content | annotation | field-value | new-page | appearance | dss | signature | document-timestamp | signature-field | field | form | page | catalog | certification | metadata | replaced-object | freed-object (an object an update marks free in its cross-reference section) */
  kind: string
  allowed: boolean
  why: string
}

export interface SignerCertificate {
  subject: string
  issuer: string
  serial: string
  notBefore: string
  notAfter: string
}

export type Verdict = 'valid' | 'warning' | 'invalid'

/**
 * Where a revocation answer came from: the document's DSS; the signature itself (CMS CRLs, Adobe's
 * revocation-info attribute); the application CA's own register, read in-process (no request);
 * an OCSP responder or CRL the certificate names, asked over the network now.
 */
export type RevocationSource = 'dss' | 'signature' | 'application-ca' | 'online'

export interface SignatureReport {
  /** Fully qualified field name; null for a signature dictionary no field shows. */
  field: string | null
  kind: 'certification' | 'approval' | 'document-timestamp'
  signer: SignerCertificate | null
  integrity: 'valid' | 'invalid'
  /** 1-based: the revision whose end the signature's byte range reaches. */
  revision: number
  coversWholeDocument: boolean
  modificationsAfter: 'none' | 'allowed' | 'forbidden'
  changes: Change[]
  trust: 'trusted' | 'untrusted' | 'unknown'
  revocation: 'good' | 'revoked' | 'unknown'
  revocationSource: RevocationSource | null
  timestamp: { time: string | null; tsa: string | null; valid: boolean } | null
  level: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA' | null
  summary: string
  // Additions to the contract:
  verdict: Verdict
  /** /SubFilter as written. */
  subFilter: string | null
  /** The time the signer claims (/M), not proven. */
  claimedTime: string | null
  /** When revoked: since when (ISO 8601). */
  revokedAt: string | null
  /** Every reason for a warning or an invalid verdict, for a person. */
  problems: string[]
  /**
   * The validation in ETSI EN 319 102-1's terms (indication, sub-indication, validation time, the
   * chain with each certificate's validity and revocation status), as EU DSS and pyHanko report it
   * (an addition; docs/signing.md maps each case).
   */
  validation: SignatureValidation
}

export interface VerificationReport {
  document: {
    sha256: string
    pages: number
    revisions: number
    certification: { p: number; field: string | null } | null
    /** The PAdES baseline level every signature reaches (the lowest of theirs); null when a signature has none (an addition). */
    level: SignatureReport['level']
  }
  signatures: SignatureReport[]
  verdict: Verdict
  /** One sentence for a person about the whole document (an addition). */
  summary: string
}
