export interface TimeEntry { date: string; timeIn: string; breakOut: string; breakIn: string; timeOut: string; hours: number }

/**
 * A month of attendance; signed by the employee, then countersigned by the supervisor. Plain data:
 * the view and the slots' `signatory` bindings read its fields, the plugin makes it Signable.
 */
export interface DailyTimeRecord {
  id: string
  title: string
  employeeId: string
  employeeName: string
  supervisorId: string
  supervisorName: string
  period: string
  department: string
  days: TimeEntry[]
}

export function dailyTimeRecord(fields: Omit<DailyTimeRecord, 'title'>): DailyTimeRecord {
  // Something a person reads, instead of the default "Daily Time Record #dtr-...".
  return { ...fields, title: `Daily time record - ${fields.employeeName}, ${fields.period}` }
}
