import type { ContractData } from '../templates/contract-template.ts'

/** An employment contract, signed by the employer, then the employee. Plain data: the plugin makes it Signable. */
export interface ContractRecord extends Omit<ContractData, 'clauses'> {
  employerId: string
  employeeId: string
  title: string
}

export function contractRecord(fields: Omit<ContractRecord, 'title'>): ContractRecord {
  return { ...fields, title: `Employment contract - ${fields.employeeName}` }
}
