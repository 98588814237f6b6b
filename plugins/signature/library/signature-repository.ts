import type { StagedObject } from '../../../core/storage/disk.ts'
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

  /**
   * Points a signed document's row at its renewed file, only while it still points at `fromKey`:
   * of two renewals at once exactly one moves it (the other sees 0 rows and removes its file).
   */
  async moveDocument(uuid: string, fromKey: string, to: { key: string; sha256: string; document?: StagedObject }): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const result = await tx.updateTable('digital_signatures').set({ document_key: to.key, document_sha256: to.sha256 })
        .where('uuid', '=', uuid).where('document_key', '=', fromKey).executeTakeFirst()
      const moved = Number(result.numUpdatedRows) === 1
      // The new copy is kept only by the renewal that moved the row to it.
      if (moved) await to.document?.commitIn(tx)
      return moved
    })
  }

  /** Signed copies made in one pass (single signatures and /api/sign; a session's revisions are the session's), oldest first. */
  signedDocuments(limit = 1000) {
    return this.db.selectFrom('digital_signatures').selectAll()
      .where('source_uuid', 'is not', null).where('status', '=', 'signed').where('document_key', 'like', 'signed/%')
      .orderBy('signed_at').orderBy('uuid').limit(limit).execute()
  }

  insertPositions(rows: SignaturePositionTable[], db: Db = this.db) {
    return rows.length ? db.insertInto('signature_positions').values(rows).execute() : Promise.resolve([])
  }

  positions(signatureUuid: string) {
    return this.db.selectFrom('signature_positions').selectAll().where('signature_uuid', '=', signatureUuid).orderBy('created_at').orderBy('id').execute()
  }
}
