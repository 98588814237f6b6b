import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { EMPLOYEE_BOX, finalize, meta, signerWithSignature, SUPERVISOR_BOX } from './helpers.ts'

t.test('without a record: placements are validated and echoed normalized, no PDF, no row', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const res = await finalize(app, staff, 'daily-time-record', { signature: staff.signature, placements: [{ ...SUPERVISOR_BOX, x: 480.123456 }, EMPLOYEE_BOX] })
  t.equal(res.statusCode, 200, res.body)
  t.same(res.json().data, { status: 'acknowledged', placements: [EMPLOYEE_BOX, { ...SUPERVISOR_BOX, x: 480.12 }] }, 'slot order, rounded to 1/100 pt')
  t.equal((await finalize(app, staff, 'daily-time-record', { signature: staff.signature, placements: [{ ...EMPLOYEE_BOX, y: 600 }] })).json().code, 'ERR_PLACEMENT_OFF_PAGE')
  t.equal((await finalize(app, staff, 'daily-time-record', { signature: staff.signature, placements: [EMPLOYEE_BOX, EMPLOYEE_BOX] })).json().code, 'ERR_SLOT_UNKNOWN', 'a slot placed twice')
  t.same(await app.signature.signatures.db.selectFrom('signature_positions').selectAll().execute(), [])

  const m = await meta(app, staff, 'daily-time-record', { signature: staff.signature })
  t.equal(m.statusCode, 200, m.body)
  t.match(m.json().data, {
    mode: 'acknowledgement', template: { key: 'daily-time-record', label: 'Daily Time Record' },
    pages: [{ page: 1, width: 792, height: 612 }],
    slots: [{ key: 'employee', placement: { page: 1, x: 72, y: 66 } }, { key: 'supervisor' }],
    signatures: [{ uuid: staff.signature, active: true }],
  })
  const session = await finalize(app, staff, 'daily-time-record', { signature: staff.signature, request: 'r-1', placements: [] })
  t.equal(app.signature.sessions ? session.statusCode !== 501 : session.statusCode === 501, true, 'session mode: 501 until a session manager is installed')
})
