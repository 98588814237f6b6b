import { ERR_CONFLICT, ERR_NOT_FOUND, type ResourceSource } from '../../core/index.ts'
import type { RecordSource } from '../../plugins/signature/index.ts'

export interface Invoice {
  id: string
  number: string
  customer: string
  /** The account that signs the invoice (the template's `signatory`). */
  customerId: string
  amount: number
  status: 'draft' | 'sent' | 'paid'
}

/** The invoices an app starts with. In memory for now: a restart brings these two back. */
export function seedInvoices(): Invoice[] {
  return [
    { id: 'inv-1', number: '2026-001', customer: 'Cody Customer', customerId: 'u-customer', amount: 1200, status: 'sent' },
    { id: 'inv-2', number: '2026-002', customer: 'Cody Customer', customerId: 'u-customer', amount: 340.5, status: 'draft' },
  ]
}

/** Where the invoice screens read and write; the framework has checked the permissions already. */
export function invoiceSource(INVOICES: Invoice[]): ResourceSource<Invoice> {
  const find = (id: string) => {
    const invoice = INVOICES.find((i) => i.id === id)
    if (!invoice) throw ERR_NOT_FOUND(`No invoice ${id}`)
    return invoice
  }
  const numberFree = (number: unknown, id?: string) => {
    if (INVOICES.some((i) => i.number === number && i.id !== id)) throw ERR_CONFLICT(`Invoice ${number} exists`, { details: { field: 'number' } })
  }
  return {
    list: async (_actor, query) => {
      const needle = query.search?.toLowerCase()
      const found = INVOICES.filter((i) => (!needle || query.searchFields.some((field) => String(i[field]).toLowerCase().includes(needle)))
        && (!query.filters.status || i.status === query.filters.status))
      const { field, direction } = query.sort
      const sorted = found.sort((a, b) => (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : 0) * (direction === 'asc' ? 1 : -1))
      return { data: sorted.slice((query.page - 1) * query.perPage, query.page * query.perPage), total: found.length }
    },
    get: async (_actor, id) => find(id),
    create: async (_actor, input) => {
      numberFree(input.number)
      const invoice = { id: `inv-${Date.now().toString(36)}`, customerId: 'u-customer', ...input } as Invoice
      INVOICES.push(invoice)
      return invoice
    },
    update: async (_actor, id, input) => {
      numberFree(input.number, id)
      return Object.assign(find(id), input)
    },
    remove: async (_actor, id) => { INVOICES.splice(INVOICES.indexOf(find(id)), 1) },
  }
}

/** Where the signature plugin finds invoices to sign: plain records, the plugin makes them Signable. */
export function invoiceRecords(INVOICES: Invoice[]): RecordSource {
  const signable = (invoice: Invoice) => ({ ...invoice, title: `Invoice ${invoice.number}` })
  return {
    forTemplate: (key) => (key === 'invoice' ? INVOICES.map(signable) : []),
    find: (key, id) => {
      const invoice = INVOICES.find((i) => i.id === id)
      return key === 'invoice' && invoice ? signable(invoice) : null
    },
  }
}
