import type { Kysely, Migration } from 'kysely'

// Issue 38, item 6: a document with its fields saved as a template (the registry's runtime way,
// kept here so every instance registers it again at boot). The key is the primary key: one key,
// one template, whichever way it was registered.
export const addDocumentTemplates: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createTable('document_templates')
      .addColumn('key', 'varchar(120)', (c) => c.primaryKey())
      .addColumn('label', 'varchar(200)', (c) => c.notNull())
      .addColumn('document_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('roles', 'text', (c) => c.notNull())
      .addColumn('fields', 'text', (c) => c.notNull())
      .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('document_templates').execute()
  },
}
