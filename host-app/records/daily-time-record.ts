import { HasPdfTemplate, type TemplateLookup } from '../../plugins/signature/contracts/has-pdf-template.ts'

export interface TimeEntry { date: string; timeIn: string; breakOut: string; breakIn: string; timeOut: string; hours: number }

export interface DailyTimeRecordFields {
  id: string
  employeeId: string
  employeeName: string
  supervisorId: string
  supervisorName: string
  period: string
  department: string
  days: TimeEntry[]
}

class DailyTimeRecordData {
  readonly signaturePdfTemplate = 'daily-time-record'
  readonly id: string
  constructor(readonly templates: TemplateLookup, readonly fields: DailyTimeRecordFields) {
    this.id = fields.id
  }
  // The view and the slots' `signatory` bindings read these as plain fields of the record.
  get employeeId() { return this.fields.employeeId }
  get employeeName() { return this.fields.employeeName }
  get supervisorId() { return this.fields.supervisorId }
  get supervisorName() { return this.fields.supervisorName }
  get period() { return this.fields.period }
  get department() { return this.fields.department }
  get days() { return this.fields.days }
}

/** A month of attendance; signed by the employee, then countersigned by the supervisor. */
export class DailyTimeRecord extends HasPdfTemplate(DailyTimeRecordData, (record) => record.templates) {
  // Overrides the trait's default title ("Daily Time Record #dtr-...") with something a person reads.
  override getSignableTitle(): string {
    return `Daily time record - ${this.employeeName}, ${this.period}`
  }
}
