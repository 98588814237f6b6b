import type { Kysely } from 'kysely'
import { z } from 'zod'
import { dateValue, defineResource, defineRule, ERR_ACCESS_DENIED, moneyValue, type FormField, type Resource } from '../../core/index.ts'
import type { InvoiceTables } from './invoice-table.ts'
import { invoiceSource, markPaid, type Invoice } from './invoices.ts'

const STATUSES = ['draft', 'sent', 'paid'].map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }))

const FIELDS: FormField<Invoice>[] = [
  { key: 'number', label: 'Number', type: 'text', required: true, schema: z.string().trim().regex(/^\d{4}-\d{3}$/, 'like 2026-001') },
  { key: 'customer', label: 'Customer', type: 'text', required: true, schema: z.string().trim().min(1).max(120) },
  { key: 'amount', label: 'Amount', type: 'money', currency: 'EUR', required: true, schema: moneyValue({ currency: 'EUR', min: 0.01, max: 1e9 }) },
  { key: 'status', label: 'Status', type: 'select', required: true, options: () => STATUSES, schema: z.enum(['draft', 'sent', 'paid']) },
  { key: 'issued_on', label: 'Issued on', type: 'date', schema: dateValue({ optional: true }) },
]

const NOT_PAID = defineRule((_actor: unknown, invoice: Invoice) => invoice.status !== 'paid', () => ERR_ACCESS_DENIED('This invoice is paid already'))

/**
 * The Invoices screen: a list with search, sort, a status filter and an issue-date range, each
 * invoice's page, the edit, create and delete forms, and "Mark as paid" for one or several. The framework checks each action's permission before it
 * calls the source; an action left out would have no route.
 */
export function invoiceResource(db: Kysely<InvoiceTables>): Resource<Invoice> {
  return defineResource<Invoice>({
    slug: 'invoices',
    label: 'Invoices',
    recordLabel: 'invoice',
    title: (invoice) => `Invoice ${invoice.number}`,
    // An invoice's page shows it; editing is its own page, behind the Edit button.
    viewPage: true,
    columns: [
      { key: 'number', label: 'Number', sortable: true, primary: true },
      { key: 'customer', label: 'Customer', sortable: true },
      { key: 'amount', label: 'Amount', sortable: true, type: 'money', currency: 'EUR' },
      { key: 'status', label: 'Status', badge: true },
      { key: 'issued_on', label: 'Issued', sortable: true, type: 'date' },
    ],
    defaultSort: '-number',
    searchFields: ['customer'],
    perPage: 20,
    filters: [{ key: 'status', label: 'Status', options: STATUSES }, { type: 'dateRange', key: 'issued_on', label: 'Issued' }],
    form: { fields: FIELDS },
    // Confirmed in the app's dialog; the framework checks the permission and the rule for every invoice first.
    recordActions: [{
      name: 'mark-paid', label: 'Mark as paid', permission: 'invoices:update', rule: NOT_PAID,
      confirm: { title: 'Mark this invoice as paid?' },
      handle: async (_actor, invoice) => { await markPaid(db, [invoice.id]); return `Invoice ${invoice.number} is paid.` },
    }],
    bulkActions: [{
      name: 'mark-paid', label: 'Mark as paid', permission: 'invoices:update', rule: NOT_PAID,
      confirm: { title: 'Mark the chosen invoices as paid?' },
      handle: async (_actor, invoices) => { await markPaid(db, invoices.map((i) => i.id)) },
    }],
    actions: {
      view: { permission: 'invoices:read' },
      create: { permission: 'invoices:create' },
      edit: { permission: 'invoices:update' },
      delete: { permission: 'invoices:delete' },
    },
    source: invoiceSource(db, FIELDS),
  })
}
