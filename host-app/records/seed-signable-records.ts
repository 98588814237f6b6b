import { contractRecord } from './contract-record.ts'
import { dailyTimeRecord, type TimeEntry } from './daily-time-record.ts'
import { MemorySignableRecords } from './memory-signable-records.ts'
import type { PayslipRecord } from './payslip-record.ts'

interface Person { id: string; name: string }

// The three demo accounts (host-app/users/demo-users.ts), each with whoever countersigns for them.
const PEOPLE: Array<{ person: Person; supervisor: Person; payroll: Person; employer: Person; department: string }> = [
  { person: { id: 'u-staff', name: 'Sam Staff' }, supervisor: { id: 'u-manager', name: 'Max Manager' }, payroll: { id: 'u-admin', name: 'Ada Admin' }, employer: { id: 'u-admin', name: 'Ada Admin' }, department: 'Operations' },
  { person: { id: 'u-manager', name: 'Max Manager' }, supervisor: { id: 'u-admin', name: 'Ada Admin' }, payroll: { id: 'u-admin', name: 'Ada Admin' }, employer: { id: 'u-admin', name: 'Ada Admin' }, department: 'Operations' },
  // Nobody countersigns their own record: the admin's are countersigned by the manager.
  { person: { id: 'u-admin', name: 'Ada Admin' }, supervisor: { id: 'u-manager', name: 'Max Manager' }, payroll: { id: 'u-manager', name: 'Max Manager' }, employer: { id: 'u-manager', name: 'Max Manager' }, department: 'Administration' },
]

function weekdays(month: string, count: number): TimeEntry[] {
  return Array.from({ length: count }, (_, i) => ({
    date: `${month}-${String(i + 2).padStart(2, '0')}`, timeIn: '08:30', breakOut: '12:00', breakIn: '12:45', timeOut: '17:15', hours: 8,
  }))
}

/** Every demo account gets at least one daily time record, payslip and contract. Fixed data: no clock. */
export function seedSignableRecords(): MemorySignableRecords {
  const records = new MemorySignableRecords()
  for (const { person, supervisor, payroll, employer, department } of PEOPLE) {
    const short = person.id.replace(/^u-/, '')
    for (const [month, period] of [['2026-02', 'February 2026'], ['2026-03', 'March 2026']] as const) {
      records.add('daily-time-record', dailyTimeRecord({
        id: `dtr-${short}-${month}`, employeeId: person.id, employeeName: person.name, supervisorId: supervisor.id,
        supervisorName: supervisor.name, period, department, days: weekdays(month, 5),
      }))
    }
    const payslip: PayslipRecord = {
      id: `payslip-${short}-2026-03`, employeeId: person.id, payrollOfficerId: payroll.id, employeeName: person.name,
      period: 'March 2026', currency: 'EUR', lines: [{ label: 'Base salary', amount: 3000 }, { label: 'Tax', amount: -750 }],
    }
    records.add('payslip', payslip)
    records.add('contract', contractRecord({
      id: `contract-${short}`, employerId: employer.id, employerName: 'Example Ltd', employeeId: person.id, employeeName: person.name, signedOn: '2 January 2026',
    }))
  }
  return records
}
