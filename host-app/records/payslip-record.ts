import { HasPdfTemplate, type TemplateLookup } from '../../plugins/signature/contracts/has-pdf-template.ts'
import type { PayslipData } from '../templates/payslip-pdf-renderer.ts'

export interface PayslipFields extends PayslipData {
  employeeId: string
  payrollOfficerId: string
}

class PayslipData_ {
  readonly signaturePdfTemplate = 'payslip'
  constructor(readonly templates: TemplateLookup, readonly fields: PayslipFields) {}
  get id() { return this.fields.id }
  get employeeId() { return this.fields.employeeId }
  get payrollOfficerId() { return this.fields.payrollOfficerId }
  get employeeName() { return this.fields.employeeName }
  get period() { return this.fields.period }
  get currency() { return this.fields.currency }
  get lines() { return this.fields.lines }
}

/** Uses the trait's default title ("Payslip #...") and PDF path: nothing overridden. */
export class PayslipRecord extends HasPdfTemplate(PayslipData_, (record) => record.templates) {}
