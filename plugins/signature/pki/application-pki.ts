// The answers of the application's PKI over its keys and the issued_certificates register:
// what the routes serve, and what the signing code may call in-process.
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { SerializedCertificateAuthority } from '../certificates/index.ts'
import type { SignatureTables } from '../database/schema.ts'
import { openTimestampAuthority, type SerializedTimestampAuthority } from './app-timestamp-authority.ts'
import { buildCrl } from './build-crl.ts'
import { buildOcspResponse, isIssuedBy, ocspFailure, type CertificateStatus } from './build-ocsp-response.ts'
import { certificateFields, pemToDer, type CertificateFields } from './certificate-fields.ts'
import { issuedCertificates } from './issued-certificates.ts'
import { OcspRequestError, parseOcspRequest } from './parse-ocsp-request.ts'
import { respondToTimestampQuery, type TimestampAuthorityKeys } from './respond-to-timestamp-query.ts'

export class ApplicationPki {
  readonly caPem: string
  readonly caDer: Buffer
  readonly timestampAuthority: TimestampAuthorityKeys
  readonly #ca: { privateKey: KeyObject; certificate: CertificateFields }

  constructor(
    private readonly db: Kysely<SignatureTables>,
    ca: SerializedCertificateAuthority,
    tsa: SerializedTimestampAuthority,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.caPem = ca.certPem
    this.caDer = pemToDer(ca.certPem)
    this.#ca = { privateKey: createPrivateKey(ca.keyPem), certificate: certificateFields(this.caDer) }
    this.timestampAuthority = openTimestampAuthority(tsa, ca)
  }

  /** Puts the TSA's certificate in the register, so OCSP answers "good" for it. */
  recordOwnCertificates(): Promise<void> {
    return this.recordCertificate(this.timestampAuthority.certificates[0]!)
  }

  /**
   * Puts a certificate the CA issued outside the library (the TSA's, the application signer's)
   * in the register; idempotent, as every instance does it at boot or first use.
   */
  async recordCertificate(der: Buffer, signatureUuid: string | null = null): Promise<void> {
    const fields = certificateFields(der)
    const x509 = new X509Certificate(der)
    await issuedCertificates.record(this.db, {
      serial: fields.serialHex, subject: x509.subject.replace(/\n/g, ', '), signature_uuid: signatureUuid,
      not_after: new Date(x509.validTo).toISOString(), issued_at: new Date(x509.validFrom).toISOString(), revoked_at: null,
    })
  }

  timestamp(query: Buffer): Buffer {
    return respondToTimestampQuery(query, this.timestampAuthority, this.now())
  }

  async ocsp(der: Buffer): Promise<Buffer> {
    let request
    try {
      request = parseOcspRequest(der)
    } catch (error) {
      if (error instanceof OcspRequestError) return ocspFailure('malformedRequest')
      throw error
    }
    const ours = request.certIds.map((certId) => isIssuedBy(certId, this.#ca.certificate))
    const rows = await issuedCertificates.find(this.db, request.certIds.filter((_, i) => ours[i]).map((c) => c.serial))
    const bySerial = new Map(rows.map((row) => [row.serial, row]))
    const statuses: CertificateStatus[] = request.certIds.map((certId, i) => {
      const row = ours[i] ? bySerial.get(certId.serial) : undefined
      if (!row) return { status: 'unknown' }
      return row.revoked_at ? { status: 'revoked', at: new Date(row.revoked_at) } : { status: 'good' }
    })
    return buildOcspResponse(request, statuses, this.#ca, this.now())
  }

  async crl(): Promise<Buffer> {
    const revoked = await issuedCertificates.revoked(this.db)
    return buildCrl(revoked.map((row) => ({ serial: row.serial, revokedAt: new Date(row.revoked_at) })), this.#ca, this.now())
  }
}
