/** Every certificate the application's CA issued that a relying party may ask about. */
export interface IssuedCertificateTable {
  /** Lower-case hex, no leading zero bytes (certificate-fields.ts normalizeSerial). */
  serial: string
  subject: string
  /** The library signature the certificate belongs to; null for the application's own (TSA, ...). */
  signature_uuid: string | null
  not_after: string
  issued_at: string
  revoked_at: string | null
}

export interface PkiTables {
  issued_certificates: IssuedCertificateTable
}
