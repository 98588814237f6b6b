import type { TemplateSource } from '../../plugins/signature/index.ts'

/** An invoice: views/pdf/invoice.eta printed to PDF; the customer signs at the bottom right. */
export const invoiceTemplate: TemplateSource = {
  key: 'invoice',
  label: 'Invoice',
  view: 'pdf.invoice',
  sample_data: { record: { number: 'SAMPLE', customer: 'Sample Customer', amount: 100 } },
  slots: [
    { key: 'customer', label: 'Customer', required: true, page: 1, x: 340, y: 72, width: 200, height: 60, signatory: 'customerId' },
  ],
}
