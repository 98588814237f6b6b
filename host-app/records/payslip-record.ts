import type { PayslipData } from '../templates/payslip-pdf-renderer.ts'

/** A month's pay. No title of its own: the plugin's default ("Payslip #...") is used. */
export interface PayslipRecord extends PayslipData {
  employeeId: string
  payrollOfficerId: string
}
