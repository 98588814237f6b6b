import { type Kysely, type Migration } from 'kysely'

// Portable across SQLite and PostgreSQL, like 003: ISO-8601 text timestamps and ids written by the
// application. The dispatcher's claim reads (status, next_attempt_at), hence the index.
export const createOutboxAndWebhooks: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('signature_outbox')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('message_id', 'varchar(48)', (c) => c.notNull())
      .addColumn('channel', 'varchar(12)', (c) => c.notNull())
      .addColumn('topic', 'varchar(60)', (c) => c.notNull())
      .addColumn('target', 'varchar(64)', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(12)', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('claim_token', 'varchar(36)')
      .addColumn('claimed_at', 'varchar(32)')
      .addColumn('summary', 'varchar(600)')
      .addColumn('last_error', 'varchar(1000)')
      .addColumn('last_status_code', 'integer')
      .addColumn('sent_at', 'varchar(32)')
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute()
    await db.schema.createIndex('signature_outbox_due').on('signature_outbox').columns(['status', 'next_attempt_at']).execute()
    await db.schema.createIndex('signature_outbox_target').on('signature_outbox').columns(['channel', 'target', 'created_at']).execute()

    await db.schema
      .createTable('signature_outbox_attempts')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('outbox_id', 'varchar(36)', (c) => c.notNull().references('signature_outbox.id').onDelete('cascade'))
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('duration_ms', 'integer', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('ok', 'integer', (c) => c.notNull())
      .addColumn('error', 'varchar(1000)')
      .execute()
    await db.schema.createIndex('signature_outbox_attempts_row').on('signature_outbox_attempts').columns(['outbox_id', 'attempt']).execute()

    await db.schema
      .createTable('webhook_endpoints')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('url', 'varchar(2000)', (c) => c.notNull())
      .addColumn('description', 'varchar(500)', (c) => c.notNull())
      .addColumn('events', 'varchar(1000)', (c) => c.notNull())
      .addColumn('secret_sealed', 'varchar(400)', (c) => c.notNull())
      .addColumn('status', 'varchar(12)', (c) => c.notNull())
      .addColumn('created_by', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('webhook_endpoints').execute()
    await db.schema.dropTable('signature_outbox_attempts').execute()
    await db.schema.dropTable('signature_outbox').execute()
  },
}
