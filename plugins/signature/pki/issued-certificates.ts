import type { Kysely, Transaction } from 'kysely'
import type { SignatureTables } from '../database/schema.ts'
import type { IssuedCertificateTable } from './pki-tables.ts'

type Db = Kysely<SignatureTables> | Transaction<SignatureTables>

/** Queries on issued_certificates; each takes the connection (or transaction) to write in. */
export const issuedCertificates = {
  /** Idempotent: the application's own certificates are recorded at every boot. */
  record(db: Db, row: IssuedCertificateTable) {
    return db.insertInto('issued_certificates').values(row).onConflict((c) => c.column('serial').doNothing()).execute()
  },

  /** The first revocation time stands: revoking twice does not move it. */
  revokeOfSignature(db: Db, signatureUuid: string, at: string) {
    return db.updateTable('issued_certificates').set({ revoked_at: at })
      .where('signature_uuid', '=', signatureUuid).where('revoked_at', 'is', null).execute()
  },

  ofSignature(db: Db, signatureUuid: string) {
    return db.selectFrom('issued_certificates').select('serial').where('signature_uuid', '=', signatureUuid).executeTakeFirst()
  },

  find(db: Db, serials: string[]) {
    return serials.length
      ? db.selectFrom('issued_certificates').select(['serial', 'revoked_at']).where('serial', 'in', serials).execute()
      : Promise.resolve([])
  },

  revoked(db: Db) {
    return db.selectFrom('issued_certificates').select(['serial', 'revoked_at']).where('revoked_at', 'is not', null)
      .orderBy('revoked_at').orderBy('serial').execute() as Promise<Array<{ serial: string; revoked_at: string }>>
  },
}
