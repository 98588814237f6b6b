import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely'

/**
 * The database disk's table (database-disk.ts): one row per object of a named disk. Made on
 * SQLite too, so both engines have the same tables, though only PostgreSQL may use it
 * (STORAGE_DRIVER=database refuses SQLite, which is a file on one machine anyway).
 */
export const createStoredObjects: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('stored_objects')
      .addColumn('disk', 'varchar(200)', (c) => c.notNull())
      .addColumn('key', 'varchar(1024)', (c) => c.notNull())
      .addColumn('bytes', 'bytea', (c) => c.notNull())
      .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
      .addPrimaryKeyConstraint('stored_objects_pkey', ['disk', 'key'])
      .execute()
    // PDFs and PNGs are compressed already: PostgreSQL's own TOAST compression of them would cost
    // CPU on every write for nothing. EXTERNAL keeps them out of line, uncompressed.
    if (db.getExecutor().adapter instanceof PostgresAdapter) {
      await sql`alter table stored_objects alter column bytes set storage external`.execute(db)
    }
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('stored_objects').execute()
  },
}
