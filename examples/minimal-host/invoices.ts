import type { Kysely, Selectable } from 'kysely'
import { tableSource, type FormField, type ResourceSource } from '../../core/index.ts'
import type { RecordSource } from '../../plugins/signature/index.ts'
import type { InvoiceTables } from './invoice-table.ts'

export interface Invoice {
  id: string
  number: string
  customer: string
  /** The account that signs the invoice (the template's `signatory`): this demo has one customer. */
  customerId: string
  /** In euros; the table keeps cents. */
  amount: number
  status: 'draft' | 'sent' | 'paid'
  /** 'YYYY-MM-DD', or null when not issued yet. */
  issued_on: string | null
}

const toInvoice = (row: Selectable<InvoiceTables['invoices']>): Invoice => ({ ...row, amount: Number(row.amount) / 100, customerId: 'u-customer' })

/** The invoices a new database starts with, written once: a restart finds the table not empty. */
export async function seedInvoices(db: Kysely<InvoiceTables>): Promise<void> {
  if (await db.selectFrom('invoices').select('id').limit(1).executeTakeFirst()) return
  await db.insertInto('invoices').values([
    { id: 'inv-1', number: '2026-001', customer: 'Cody Customer', amount: 120000, status: 'sent', issued_on: '2026-01-15' },
    { id: 'inv-2', number: '2026-002', customer: 'Cody Customer', amount: 34050, status: 'draft', issued_on: '2026-02-20' },
  ]).execute()
}

/**
 * The Invoices screen's source: the table, searched, sorted and paged in SQL. The framework has
 * checked each declared action's permission before it calls the source, which need not check again.
 */
export function invoiceSource(db: Kysely<InvoiceTables>, fields: readonly FormField<Invoice>[]): ResourceSource<Invoice> {
  const inCents = (field: FormField<Invoice>) => (field.key === 'amount' ? { ...field, schema: field.schema.transform((euros) => Math.round(Number(euros) * 100)) } : field) as FormField<Invoice>
  return tableSource<InvoiceTables, 'invoices', Invoice>({ db, table: 'invoices', authorize: () => {}, fields: fields.map(inCents), toRecord: toInvoice })
}

/** "Mark as paid" for one invoice or several: one statement (only the status changes). */
export async function markPaid(db: Kysely<InvoiceTables>, ids: string[]): Promise<void> {
  await db.updateTable('invoices').set({ status: 'paid' }).where('id', 'in', ids).execute()
}

/** Where the signature plugin finds invoices to sign: plain records, the plugin makes them Signable. */
export function invoiceRecords(db: Kysely<InvoiceTables>): RecordSource {
  const signable = (row: Selectable<InvoiceTables['invoices']>) => ({ ...toInvoice(row), title: `Invoice ${row.number}` })
  return {
    forTemplate: async (key) => (key === 'invoice' ? (await db.selectFrom('invoices').selectAll().orderBy('number').execute()).map(signable) : []),
    find: async (key, id) => {
      const row = key === 'invoice' ? await db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirst() : undefined
      return row ? signable(row) : null
    },
  }
}
