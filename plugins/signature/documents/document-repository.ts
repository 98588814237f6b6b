import type { Kysely } from 'kysely'
import type { StagedObject } from '../../../core/storage/disk.ts'
import type { SignatureTables } from '../database/schema.ts'
import type { DocumentTable, DocumentTemplateTable } from './documents-tables.ts'

/** Rows of uploaded documents; the bytes are on the signature disk under `document_key`. */
export class DocumentRepository {
  constructor(readonly db: Kysely<SignatureTables>) {}

  async insert(row: DocumentTable, bytes: StagedObject): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await bytes.commitIn(tx)
      await tx.insertInto('documents').values(row).execute()
    })
  }

  find(id: string) {
    return this.db.selectFrom('documents').selectAll().where('id', '=', id).executeTakeFirst()
  }

  findTemplate(key: string) {
    return this.db.selectFrom('document_templates').selectAll().where('key', '=', key).executeTakeFirst()
  }

  /** Every saved template with its document's key, oldest first (the registry's order). */
  templates() {
    return this.#withDocument().orderBy('document_templates.created_at').orderBy('document_templates.key').execute()
  }

  /** One saved template with its document's key. */
  templateWithDocument(key: string) {
    return this.#withDocument().where('document_templates.key', '=', key).executeTakeFirst()
  }

  #withDocument() {
    return this.db.selectFrom('document_templates').innerJoin('documents', 'documents.id', 'document_templates.document_id')
      .selectAll('document_templates').select(['documents.document_key', 'documents.filename', 'documents.pages'])
  }

  async backsTemplate(documentId: string): Promise<boolean> {
    return (await this.db.selectFrom('document_templates').select('key').where('document_id', '=', documentId).limit(1).executeTakeFirst()) !== undefined
  }

  async insertTemplate(row: DocumentTemplateTable): Promise<void> {
    await this.db.insertInto('document_templates').values(row).execute()
  }

  /** The new label, or false when no row has the key (deleted meanwhile, here or elsewhere). */
  async renameTemplate(key: string, label: string): Promise<boolean> {
    const result = await this.db.updateTable('document_templates').set({ label }).where('key', '=', key).executeTakeFirst()
    return Number(result.numUpdatedRows) > 0
  }

  /**
   * Only the row: its document stays, as every upload does (its creator's; a session made from it
   * names it as its record and froze its own copy of the bytes). False when no row had the key.
   */
  async deleteTemplate(key: string): Promise<boolean> {
    const result = await this.db.deleteFrom('document_templates').where('key', '=', key).executeTakeFirst()
    return Number(result.numDeletedRows) > 0
  }
}
