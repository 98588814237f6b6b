import { type Kysely, type Migration } from 'kysely'

// Written once for SQLite and PostgreSQL: only types both understand ('double precision' has
// REAL affinity in SQLite) and timestamps stored as ISO-8601 text written by the application.
export const createTemplateSlots: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('digital_pdf_template_slots')
      .addColumn('template_key', 'varchar(120)', (c) => c.notNull())
      .addColumn('slot_key', 'varchar(120)', (c) => c.notNull())
      .addColumn('page', 'integer', (c) => c.notNull())
      .addColumn('x', 'double precision', (c) => c.notNull())
      .addColumn('y', 'double precision', (c) => c.notNull())
      .addColumn('width', 'double precision', (c) => c.notNull())
      .addColumn('height', 'double precision', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
      // The natural key is the identity: one placement per (template, slot), which is what makes
      // the upsert possible. No surrogate id (identity columns differ between the two engines).
      .addPrimaryKeyConstraint('digital_pdf_template_slots_pkey', ['template_key', 'slot_key'])
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('digital_pdf_template_slots').execute()
  },
}
