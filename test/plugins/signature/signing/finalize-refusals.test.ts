import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { EMPLOYEE_BOX, finalize, signerWithSignature, SUPERVISOR_BOX } from './helpers.ts'

// Every refusal of the signer's finalize, each with its status and code, and nothing signed.
t.test('finalize refuses what it must, with a clear code, and writes no signed document', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const manager = await signerWithSignature(app, DEMO.manager.email, 'Max')
  const record = 'dtr-staff-2026-03'
  const cases: Array<[string, object, number, string]> = [
    ["another user's signature uuid", { signature: manager.signature, signable: record, placements: [EMPLOYEE_BOX] }, 404, 'ERR_NOT_FOUND'],
    ['a record that does not exist', { signature: staff.signature, signable: 'dtr-nobody', placements: [EMPLOYEE_BOX] }, 404, 'ERR_NOT_FOUND'],
    ['a record of another template', { signature: staff.signature, signable: 'payslip-staff-2026-03', placements: [EMPLOYEE_BOX] }, 404, 'ERR_NOT_FOUND'],
    ['the supervisor slot of their own record', { signature: staff.signature, signable: record, placements: [SUPERVISOR_BOX] }, 403, 'ERR_NOT_SIGNATORY'],
    ['an unknown slot', { signature: staff.signature, signable: record, placements: [{ ...EMPLOYEE_BOX, slot: 'witness' }] }, 422, 'ERR_SLOT_UNKNOWN'],
    ['a box off the page', { signature: staff.signature, signable: record, placements: [{ ...EMPLOYEE_BOX, x: 700 }] }, 422, 'ERR_PLACEMENT_OFF_PAGE'],
    ['a page the document lacks', { signature: staff.signature, signable: record, placements: [{ ...EMPLOYEE_BOX, page: 2 }] }, 422, 'ERR_PLACEMENT_OFF_PAGE'],
    ['an unknown field', { signature: staff.signature, signable: record, placements: [EMPLOYEE_BOX], userId: 'u-admin' }, 400, 'ERR_VALIDATION'],
    ['a negative coordinate', { signature: staff.signature, signable: record, placements: [{ ...EMPLOYEE_BOX, x: -1 }] }, 400, 'ERR_VALIDATION'],
    ['no placements', { signature: staff.signature, signable: record, placements: [] }, 400, 'ERR_VALIDATION'],
  ]
  for (const [name, body, status, code] of cases) {
    const res = await finalize(app, staff, 'daily-time-record', body)
    t.equal(res.statusCode, status, `${name}: ${res.body}`)
    t.equal(res.json().code, code, name)
  }
  // Manager signs the staff member's record as supervisor: allowed; but not as employee.
  t.equal((await finalize(app, manager, 'daily-time-record', { signature: manager.signature, signable: record, placements: [EMPLOYEE_BOX] })).statusCode, 403)
  // An unknown template and a missing CSRF token.
  t.equal((await finalize(app, staff, 'no-such-template', { signature: staff.signature, placements: [EMPLOYEE_BOX] })).json().code, 'ERR_TEMPLATE_NOT_FOUND')
  const noToken = await app.inject({ method: 'POST', url: '/app/signature-templates/daily-time-record/signer/finalize', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, signable: record, placements: [EMPLOYEE_BOX] } })
  t.equal(noToken.json().code, 'ERR_CSRF')

  // A revoked signature is refused like one that does not exist.
  t.equal((await app.inject({ method: 'DELETE', url: `/api/signatures/${staff.signature}`, headers: { cookie: staff.cookie } })).statusCode, 204)
  const revoked = await finalize(app, staff, 'daily-time-record', { signature: staff.signature, signable: record, placements: [EMPLOYEE_BOX] })
  t.equal(revoked.statusCode, 404, 'revoked signature')
  t.equal((await app.inject({ url: `/app/signature-templates/daily-time-record/sign/${staff.signature}`, headers: { cookie: staff.cookie, accept: 'text/html' } })).statusCode, 404, 'the signer page too')

  t.same(await app.signature.signatures.db.selectFrom('digital_signatures').select('uuid').where('status', '=', 'signed').execute(), [], 'nothing was signed')
  t.notOk(await app.signature.disk.exists('signed'), 'no signed file written')
})
