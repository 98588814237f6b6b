import { defineResource, type Policy, type Resource } from '../../core/index.ts'
import { invoiceSource, type Invoice } from './invoices.ts'

/** The Invoices screen: a list with search and sort, and each invoice's page. */
export function invoiceResource(policy: Policy): Resource<Invoice> {
  return defineResource<Invoice>({
    slug: 'invoices',
    label: 'Invoices',
    recordLabel: 'invoice',
    title: (invoice) => `Invoice ${invoice.number}`,
    columns: [
      { key: 'number', label: 'Number', sortable: true, primary: true },
      { key: 'customer', label: 'Customer', sortable: true },
      { key: 'amount', label: 'Amount', value: (invoice) => `EUR ${invoice.amount.toFixed(2)}` },
    ],
    defaultSort: '-number',
    searchFields: ['customer'],
    perPage: 20,
    actions: { view: { permission: 'invoices:read' } },
    source: invoiceSource(policy),
  })
}
