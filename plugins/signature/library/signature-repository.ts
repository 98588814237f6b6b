import type { Kysely, Transaction } from 'kysely'
import type { SignatureTables } from '../database/schema.ts'
import type { DigitalSignatureTable, SignaturePositionTable } from './library-tables.ts'

type Db = Kysely<SignatureTables> | Transaction<SignatureTables>

/** Queries on digital_signatures and signature_positions; no rules here, only rows. */
export class SignatureRepository {
  constructor(readonly db: Kysely<SignatureTables>) {}

  /** A user's own library signatures (not the per-document child rows). */
  listLibrary(userId: string) {
    return this.db.selectFrom('digital_signatures').selectAll()
      .where('user_id', '=', userId).where('signable_id', 'is', null).where('source_uuid', 'is', null)
      .orderBy('created_at', 'asc').orderBy('uuid', 'asc').execute()
  }

  findLibrary(userId: string, uuid: string) {
    return this.db.selectFrom('digital_signatures').selectAll()
      .where('uuid', '=', uuid).where('user_id', '=', userId).where('signable_id', 'is', null).where('source_uuid', 'is', null)
      .executeTakeFirst()
  }

  find(uuid: string, db: Db = this.db) {
    return db.selectFrom('digital_signatures').selectAll().where('uuid', '=', uuid).executeTakeFirst()
  }

  /** The user's oldest active library signature other than `exceptUuid` becomes the primary one. */
  async promoteOldestActive(userId: string, exceptUuid: string, db: Db = this.db) {
    const next = await db.selectFrom('digital_signatures').select('uuid')
      .where('user_id', '=', userId).where('signable_id', 'is', null).where('source_uuid', 'is', null)
      .where('status', '=', 'active').where('uuid', '!=', exceptUuid)
      .orderBy('created_at', 'asc').orderBy('uuid', 'asc').executeTakeFirst()
    if (next) await db.updateTable('digital_signatures').set({ is_primary: 1 }).where('uuid', '=', next.uuid).execute()
  }

  insert(row: DigitalSignatureTable, db: Db = this.db) {
    return db.insertInto('digital_signatures').values(row).execute()
  }

  update(uuid: string, patch: Partial<DigitalSignatureTable>, db: Db = this.db) {
    return db.updateTable('digital_signatures').set(patch).where('uuid', '=', uuid).execute()
  }

  insertPositions(rows: SignaturePositionTable[], db: Db = this.db) {
    return rows.length ? db.insertInto('signature_positions').values(rows).execute() : Promise.resolve([])
  }

  positions(signatureUuid: string) {
    return this.db.selectFrom('signature_positions').selectAll().where('signature_uuid', '=', signatureUuid).orderBy('created_at').orderBy('id').execute()
  }
}
