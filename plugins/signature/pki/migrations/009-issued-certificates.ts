import type { Kysely, Migration } from 'kysely'

// The CA's register of issued certificates and their revocation, read by the CRL and OCSP on
// every instance. Certificates issued before this migration are not in it: OCSP answers
// "unknown" for them (they carry no OCSP or CRL address either).
export const createIssuedCertificates: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('issued_certificates')
      .addColumn('serial', 'varchar(42)', (c) => c.primaryKey())
      .addColumn('subject', 'varchar(500)', (c) => c.notNull())
      .addColumn('signature_uuid', 'varchar(36)')
      .addColumn('not_after', 'varchar(32)', (c) => c.notNull())
      .addColumn('issued_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('revoked_at', 'varchar(32)')
      .execute()
    await db.schema.createIndex('issued_certificates_signature').on('issued_certificates').column('signature_uuid').execute()
    await db.schema.createIndex('issued_certificates_revoked').on('issued_certificates').column('revoked_at').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('issued_certificates').execute()
  },
}
