import { HasPdfTemplate, type TemplateLookup } from '../../plugins/signature/contracts/has-pdf-template.ts'

export interface ContractFields {
  id: string
  employerId: string
  employerName: string
  employeeId: string
  employeeName: string
  signedOn: string
}

class ContractData {
  readonly signaturePdfTemplate = 'contract'
  constructor(readonly templates: TemplateLookup, readonly fields: ContractFields) {}
  get id() { return this.fields.id }
  get employerId() { return this.fields.employerId }
  get employerName() { return this.fields.employerName }
  get employeeId() { return this.fields.employeeId }
  get employeeName() { return this.fields.employeeName }
  get signedOn() { return this.fields.signedOn }
}

export class ContractRecord extends HasPdfTemplate(ContractData, (record) => record.templates) {
  override getSignableTitle(): string {
    return `Employment contract - ${this.employeeName}`
  }
}
