import type { Kysely } from 'kysely'
import { z } from 'zod'
import { defineResource, type FormField, type Resource } from '../../core/index.ts'
import type { InvoiceTables } from './invoice-table.ts'
import { invoiceSource, type Invoice } from './invoices.ts'

const STATUSES = ['draft', 'sent', 'paid'].map((value) => ({ value, label: value.charAt(0).toUpperCase() + value.slice(1) }))

const FIELDS: FormField<Invoice>[] = [
  { key: 'number', label: 'Number', type: 'text', required: true, schema: z.string().trim().regex(/^\d{4}-\d{3}$/, 'like 2026-001') },
  { key: 'customer', label: 'Customer', type: 'text', required: true, schema: z.string().trim().min(1).max(120) },
  { key: 'amount', label: 'Amount (EUR)', type: 'number', required: true, schema: z.coerce.number().positive().max(1e9) },
  { key: 'status', label: 'Status', type: 'select', required: true, options: () => STATUSES, schema: z.enum(['draft', 'sent', 'paid']) },
]

/**
 * The Invoices screen: a list with search, sort and a status filter, each invoice's page, and
 * the edit, create and delete forms. The framework checks each action's permission before it
 * calls the source; an action left out would have no route.
 */
export function invoiceResource(db: Kysely<InvoiceTables>): Resource<Invoice> {
  return defineResource<Invoice>({
    slug: 'invoices',
    label: 'Invoices',
    recordLabel: 'invoice',
    title: (invoice) => `Invoice ${invoice.number}`,
    columns: [
      { key: 'number', label: 'Number', sortable: true, primary: true },
      { key: 'customer', label: 'Customer', sortable: true },
      { key: 'amount', label: 'Amount', sortable: true, value: (invoice) => `EUR ${invoice.amount.toFixed(2)}` },
      { key: 'status', label: 'Status', badge: true },
    ],
    defaultSort: '-number',
    searchFields: ['customer'],
    perPage: 20,
    filters: [{ key: 'status', label: 'Status', options: STATUSES }],
    form: { fields: FIELDS },
    actions: {
      view: { permission: 'invoices:read' },
      create: { permission: 'invoices:create' },
      edit: { permission: 'invoices:update' },
      delete: { permission: 'invoices:delete' },
    },
    source: invoiceSource(db, FIELDS),
  })
}
