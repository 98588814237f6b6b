import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { EMPLOYEE_BOX, finalize, signerWithSignature } from './helpers.ts'

t.test('GET /api/signatures/:uuid/document: the signer and signatures:read-any; 404 for everyone else', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const signed = (await finalize(app, staff, 'daily-time-record', { signature: staff.signature, signable: 'dtr-staff-2026-02', placements: [EMPLOYEE_BOX] })).json().data
  const url = `/api/signatures/${signed.signature_uuid}/document`
  t.equal((await app.inject({ url, headers: { cookie: staff.cookie } })).statusCode, 200, 'the signer')
  t.equal((await app.inject({ url, headers: { cookie: await login(app, DEMO.admin.email) } })).statusCode, 200, 'admin (signatures:*)')
  t.equal((await app.inject({ url, headers: { cookie: await login(app, DEMO.manager.email) } })).statusCode, 404, 'manager: not theirs, no read-any')
  t.equal((await app.inject({ url })).statusCode, 401)
  t.equal((await app.inject({ url: `/api/signatures/${staff.signature}/document`, headers: { cookie: staff.cookie } })).statusCode, 404, 'a library signature has no document')
  t.equal((await app.inject({ url: '/api/signatures/not-a-uuid/document', headers: { cookie: staff.cookie } })).statusCode, 404)
})
