import type { Kysely } from 'kysely'
import type { SignatureTables } from '../database/schema.ts'
import type { DocumentTable } from './documents-tables.ts'

/** Rows of uploaded documents; the bytes are on the signature disk under `document_key`. */
export class DocumentRepository {
  constructor(readonly db: Kysely<SignatureTables>) {}

  async insert(row: DocumentTable): Promise<void> {
    await this.db.insertInto('documents').values(row).execute()
  }

  find(id: string) {
    return this.db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst()
  }
}
