import { readdir } from 'node:fs/promises'
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { csrfFor } from '../../../helpers/pages.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { EMPLOYEE_BOX, finalize, signerWithSignature } from './helpers.ts'

// A box of 1e-9 pt gave a stamp nobody can see. One minimum (8 pt), one code, at every entrance.
const TINY = [{ width: 1e-9 }, { height: 7.99 }, { width: 0.5, height: 0.5 }]

t.test('a box under 8 x 8 pt is 422 ERR_BOX_TOO_SMALL at every entrance, and nothing is written', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const admin = await login(app, DEMO.admin.email)
  const adminCsrf = await csrfFor(app, admin)
  const refused = (what: string, res: { statusCode: number; body: string; json(): { code: string; message: string } }) => {
    t.equal(res.statusCode, 422, `${what}: ${res.body.slice(0, 200)}`)
    t.equal(res.json().code, 'ERR_BOX_TOO_SMALL', what)
    t.match(res.json().message, /minimum of 8 x 8 pt/, `${what}: says the minimum`)
  }
  const pdf = Buffer.from(await makePdf()).toString('base64')
  for (const tiny of TINY) {
    const label = JSON.stringify(tiny)
    // The designer's save.
    refused(`designer ${label}`, await app.inject({
      method: 'POST', url: '/admin/signature-templates/payslip/design/slots/employee',
      headers: { cookie: admin, 'x-csrf-token': adminCsrf, accept: 'application/json' },
      payload: { page: 1, x: 50, y: 60, width: 200, height: 40, ...tiny },
    }))
    // The signer's finalize.
    refused(`finalize ${label}`, await finalize(app, staff, 'daily-time-record', { signature: staff.signature, signable: 'dtr-staff-2026-03', placements: [{ ...EMPLOYEE_BOX, ...tiny }] }))
    // /api/sign.
    refused(`/api/sign ${label}`, await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf, placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80, ...tiny }] } }))
  }
  t.same(await app.signature.slots.forTemplate('payslip'), [], 'no slot row')
  t.same(await readdir(app.signature.disk.path('signed')).catch(() => []), [], 'no signed file')

  // A session's fields come from the designer's rows; one saved before the minimum existed is
  // refused when the session freezes the document, and no session is created.
  await app.signature.slots.upsert('daily-time-record', 'employee', { page: 1, x: 72, y: 66, width: 1e-9, height: 48 })
  const session = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'sequential' } })
  refused('session field', session)
  t.same((await app.inject({ url: '/api/signing-sessions', headers: { cookie: admin } })).json().data, [], 'no session')

  // Exactly the minimum is accepted.
  const atMinimum = await app.inject({
    method: 'POST', url: '/admin/signature-templates/payslip/design/slots/employee',
    headers: { cookie: admin, 'x-csrf-token': adminCsrf, accept: 'application/json' },
    payload: { page: 1, x: 50, y: 60, width: 8, height: 8 },
  })
  t.equal(atMinimum.statusCode, 200, atMinimum.body.slice(0, 200))
})
