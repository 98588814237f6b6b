import { type Kysely, type Migration } from 'kysely'

// Portable across SQLite and PostgreSQL: text for binary data (base64), integers for booleans,
// ISO-8601 text for timestamps written by the application.
export const createDigitalSignatures: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('digital_signatures')
      .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('user_id', 'varchar(64)', (c) => c.notNull())
      // Child rows (one per signed document) point at the library signature they were made with.
      .addColumn('source_uuid', 'varchar(36)')
      // What was signed: a template key (or 'upload'), and the record's id; null for a library signature.
      .addColumn('signable_type', 'varchar(120)')
      .addColumn('signable_id', 'varchar(120)')
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('label', 'varchar(120)', (c) => c.notNull())
      .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('image_mime', 'varchar(40)')
      .addColumn('image_base64', 'text')
      .addColumn('certificate_source', 'varchar(10)')
      .addColumn('certificate_p12', 'text')
      // AES-256-GCM, bound to this row's uuid.
      .addColumn('certificate_password', 'text')
      .addColumn('certificate_subject', 'varchar(500)')
      .addColumn('certificate_not_after', 'varchar(32)')
      .addColumn('document_key', 'varchar(400)')
      .addColumn('document_sha256', 'varchar(64)')
      .addColumn('signed_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('digital_signatures_owner').on('digital_signatures').columns(['user_id', 'signable_id', 'status']).execute()
    await db.schema.createIndex('digital_signatures_source').on('digital_signatures').column('source_uuid').execute()

    await db.schema
      .createTable('signature_positions')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('signature_uuid', 'varchar(36)', (c) => c.notNull().references('digital_signatures.uuid').onDelete('cascade'))
      .addColumn('template_key', 'varchar(120)')
      .addColumn('slot_key', 'varchar(120)')
      .addColumn('page', 'integer', (c) => c.notNull())
      .addColumn('x', 'double precision', (c) => c.notNull())
      .addColumn('y', 'double precision', (c) => c.notNull())
      .addColumn('width', 'double precision', (c) => c.notNull())
      .addColumn('height', 'double precision', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('signature_positions_signature').on('signature_positions').column('signature_uuid').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('signature_positions').execute()
    await db.schema.dropTable('digital_signatures').execute()
  },
}
