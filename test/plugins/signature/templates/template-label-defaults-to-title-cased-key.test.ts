import t from 'tap'
import { makeRegistry } from '../helpers.ts'

t.test('a view template without a label gets the title-cased key; a label wins', async (t) => {
  const { registry } = await makeRegistry(t)
  t.equal(registry.registerView('daily-time-record', { view: 'pdf.simple' }).label(), 'Daily Time Record')
  t.equal(registry.registerView('leave_request.v2', { view: 'pdf.simple' }).label(), 'Leave Request V2')
  t.equal(registry.registerView('payslip', { view: 'pdf.simple', label: 'Monthly payslip' }).label(), 'Monthly payslip')
})
