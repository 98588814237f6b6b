import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely'

// Issue 38: uploaded documents, requests addressed to an e-mail address instead of a user, the
// fields of a document session, and the sign links of external signers. SQLite cannot drop a NOT
// NULL: signing_session_requests is rebuilt there, every row kept.
const REQUEST_COLUMNS = ['id', 'session_id', 'slot_key', 'field_name', 'signer_user_id', 'sign_order', 'status', 'page', 'x', 'y', 'width', 'height',
  'claim_token', 'claimed_at', 'signature_uuid', 'document_key', 'document_sha256', 'decline_reason', 'signed_at', 'declined_at', 'created_at', 'updated_at']

export const addDocumentsAndExternalSigners: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createTable('documents')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('filename', 'varchar(200)', (c) => c.notNull())
      .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
      .addColumn('document_key', 'varchar(400)', (c) => c.notNull())
      .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('pages', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('documents_creator').on('documents').columns(['created_by', 'created_at']).execute()

    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`alter table signing_session_requests alter column signer_user_id drop not null`.execute(db)
    } else {
      await rebuildRequestsWithNullableSigner(db)
    }
    await db.schema.alterTable('signing_session_requests').addColumn('signer_email', 'varchar(320)').execute()
    await db.schema.alterTable('signing_session_requests').addColumn('signer_name', 'varchar(200)').execute()
    await db.schema.alterTable('signing_session_requests').addColumn('fields', 'text').execute()
    await db.schema.alterTable('signing_session_requests').addColumn('identified_by', 'varchar(16)').execute()
    await db.schema.alterTable('signing_session_events').addColumn('user_agent', 'varchar(300)').execute()

    await db.schema.createTable('sign_links')
      .addColumn('request_id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('session_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('email', 'varchar(320)', (c) => c.notNull())
      .addColumn('token_sha256', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('used_at', 'varchar(32)')
      .addColumn('code_sha256', 'varchar(64)')
      .addColumn('code_expires_at', 'varchar(32)')
      .addColumn('code_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('cookie_sha256', 'varchar(64)')
      .addColumn('cookie_expires_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('sign_links_email').on('sign_links').columns(['email', 'created_at']).execute()
    await db.schema.createTable('sign_link_codes_sent')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('request_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('email', 'varchar(320)', (c) => c.notNull())
      .addColumn('sent_at', 'varchar(32)', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('sign_link_codes_sent_email').on('sign_link_codes_sent').columns(['email', 'sent_at']).execute()
    await db.schema.createIndex('sign_link_codes_sent_request').on('sign_link_codes_sent').columns(['request_id', 'sent_at']).execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sign_link_codes_sent').execute()
    await db.schema.dropTable('sign_links').execute()
    await db.schema.alterTable('signing_session_events').dropColumn('user_agent').execute()
    for (const column of ['identified_by', 'fields', 'signer_name', 'signer_email']) {
      await db.schema.alterTable('signing_session_requests').dropColumn(column).execute()
    }
    await db.schema.dropTable('documents').execute()
  },
}

async function rebuildRequestsWithNullableSigner(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('signing_session_requests_012')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('session_id', 'varchar(36)', (c) => c.notNull().references('signing_sessions.id').onDelete('cascade'))
    .addColumn('slot_key', 'varchar(120)', (c) => c.notNull())
    .addColumn('field_name', 'varchar(140)', (c) => c.notNull())
    .addColumn('signer_user_id', 'varchar(64)')
    .addColumn('sign_order', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('page', 'integer', (c) => c.notNull())
    .addColumn('x', 'double precision', (c) => c.notNull())
    .addColumn('y', 'double precision', (c) => c.notNull())
    .addColumn('width', 'double precision', (c) => c.notNull())
    .addColumn('height', 'double precision', (c) => c.notNull())
    .addColumn('claim_token', 'varchar(36)')
    .addColumn('claimed_at', 'varchar(32)')
    .addColumn('signature_uuid', 'varchar(36)')
    .addColumn('document_key', 'varchar(400)')
    .addColumn('document_sha256', 'varchar(64)')
    .addColumn('decline_reason', 'varchar(1000)')
    .addColumn('signed_at', 'varchar(32)')
    .addColumn('declined_at', 'varchar(32)')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('signing_session_requests_slot_012', ['session_id', 'slot_key'])
    .execute()
  const columns = sql.raw(REQUEST_COLUMNS.join(', '))
  await sql`insert into signing_session_requests_012 (${columns}) select ${columns} from signing_session_requests`.execute(db)
  await sql`drop table signing_session_requests`.execute(db)
  await sql`alter table signing_session_requests_012 rename to signing_session_requests`.execute(db)
  await db.schema.createIndex('signing_session_requests_signer').on('signing_session_requests').columns(['signer_user_id', 'status']).execute()
}
