import { assertPermission, ERR_ACCESS_DENIED, ERR_NOT_FOUND, type Policy, type ResourceSource } from '../../core/index.ts'
import type { RecordSource } from '../../plugins/signature/index.ts'

export interface Invoice {
  id: string
  number: string
  customer: string
  customerId: string
  amount: number
}

// In memory, as a host's first version often is.
const INVOICES: Invoice[] = [
  { id: 'inv-1', number: '2026-001', customer: 'Cody Customer', customerId: 'u-customer', amount: 1200 },
  { id: 'inv-2', number: '2026-002', customer: 'Cody Customer', customerId: 'u-customer', amount: 340.5 },
]

/** Where the invoice screens read: every call checks the view permission itself. */
export function invoiceSource(policy: Policy): ResourceSource<Invoice> {
  const byId = (id: string) => INVOICES.find((i) => i.id === id) ?? null
  return {
    list: async (actor, query) => {
      assertPermission(policy, actor, 'invoices:read')
      // Search looks only in the fields the resource declares (searchFields).
      const needle = query.search?.toLowerCase()
      const found = INVOICES.filter((i) => !needle || query.searchFields.some((field) => String(i[field]).toLowerCase().includes(needle)))
      const sorted = found.sort((a, b) => String(a[query.sort.field]).localeCompare(String(b[query.sort.field])) * (query.sort.direction === 'asc' ? 1 : -1))
      return { data: sorted.slice((query.page - 1) * query.perPage, query.page * query.perPage), total: found.length }
    },
    get: async (actor, id) => {
      assertPermission(policy, actor, 'invoices:read')
      const invoice = byId(id)
      if (!invoice) throw ERR_NOT_FOUND(`No invoice ${id}`)
      return invoice
    },
    update: async () => { throw ERR_ACCESS_DENIED('Invoices are read-only here') },
    remove: async () => { throw ERR_ACCESS_DENIED('Invoices are read-only here') },
  }
}

/** Where the signature plugin finds invoices to sign: plain records, the plugin makes them Signable. */
export function invoiceRecords(): RecordSource {
  const signable = (invoice: Invoice) => ({ ...invoice, title: `Invoice ${invoice.number}` })
  return {
    forTemplate: (key) => (key === 'invoice' ? INVOICES.map(signable) : []),
    find: (key, id) => {
      const invoice = INVOICES.find((i) => i.id === id)
      return key === 'invoice' && invoice ? signable(invoice) : null
    },
  }
}
