import type { Kysely, Migration } from 'kysely'

/** The example's own table, as Kysely sees it (a type, not an interface: withTables wants an index signature). `amount` is in cents (PostgreSQL hands a bigint back as a string). */
export type InvoiceTables = {
  invoices: { id: string; number: string; customer: string; amount: number | string; status: 'draft' | 'sent' | 'paid'; issued_on: string | null }
}

/** The host's migrations, run at boot with the signature plugin's (one call: Kysely wants every migration it ran). */
export const invoiceMigrations: Record<string, Migration> = {
  'invoices-001-invoices': {
    async up(db: Kysely<any>) {
      await db.schema.createTable('invoices')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('number', 'varchar(20)', (c) => c.notNull().unique())
        .addColumn('customer', 'varchar(120)', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('status', 'varchar(20)', (c) => c.notNull())
        .execute()
      // One index per sort the resource offers, ending in id (see the table source); number is unique already.
      await db.schema.createIndex('invoices_by_customer').on('invoices').columns(['customer', 'id']).execute()
      await db.schema.createIndex('invoices_by_amount').on('invoices').columns(['amount', 'id']).execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable('invoices').execute()
    },
  },
  // The day an invoice was issued ('YYYY-MM-DD' as text: it sorts and compares as it counts), for
  // the list's date-range filter and sort.
  'invoices-002-issued-on': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('invoices').addColumn('issued_on', 'varchar(10)').execute()
      await db.schema.createIndex('invoices_by_issued_on').on('invoices').columns(['issued_on', 'id']).execute()
    },
    async down(db: Kysely<any>) {
      await db.schema.dropIndex('invoices_by_issued_on').execute()
      await db.schema.alterTable('invoices').dropColumn('issued_on').execute()
    },
  },
}
