import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { getPage } from '../../../helpers/pages.ts'
import { signerWithSignature } from '../signing/helpers.ts'

t.test('signer page: 200 with url()-built calls for the owner; 404 for another user, a revoked signature or a wrong record', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const manager = await signerWithSignature(app, DEMO.manager.email, 'Max')
  const url = (uuid: string, query = '') => `/app/signature-templates/daily-time-record/sign/${uuid}${query}`

  const page = await getPage(app, url(staff.signature, '?signable=dtr-staff-2026-03'), staff.cookie)
  t.equal(page.statusCode, 200)
  t.match(page.body, /data-signer/)
  t.match(page.body, /Finish &amp; Save/)
  t.match(page.body, /Cancel/)
  t.match(page.body, /\/app\/signature-templates\/daily-time-record\/signer\/meta\?signature=/, 'meta URL from url()')
  t.match(page.body, /\/app\/signature-templates\/daily-time-record\/signer\/finalize/, 'finalize URL from url()')
  t.match(page.body, /\/app\/signature-assets\/signer\.js/)

  t.equal((await getPage(app, url(manager.signature), staff.cookie)).statusCode, 404, "another user's signature")
  t.equal((await getPage(app, url('00000000-0000-4000-8000-000000000000'), staff.cookie)).statusCode, 404, 'unknown uuid')
  t.equal((await getPage(app, url(staff.signature, '?signable=dtr-nobody'), staff.cookie)).statusCode, 404, 'wrong record')
  // 404, no longer 403: a record the user may not see is answered as one that does not exist (issue 15).
  t.equal((await getPage(app, url(staff.signature, '?signable=dtr-admin-2026-03'), staff.cookie)).statusCode, 404, 'a record they are not a signatory of')
  t.equal((await getPage(app, `/app/signature-templates/nope/sign/${staff.signature}`, staff.cookie)).statusCode, 404, 'unknown template')
  const out = await getPage(app, url(staff.signature))
  t.ok(out.statusCode >= 300 && out.statusCode < 400 && /\/login/.test(String(out.headers.location)), 'signed out: to the login page')

  const meta = await app.inject({ url: `/app/signature-templates/daily-time-record/signer/meta?signature=${staff.signature}&signable=dtr-staff-2026-03`, headers: { cookie: staff.cookie } })
  t.match(meta.json().data, { mode: 'production', record: { id: 'dtr-staff-2026-03' }, slots: [{ key: 'employee' }] })
  t.equal(meta.json().data.slots.length, 1, 'only the slot bound to the employee')
  const image = await app.inject({ url: '/app/signature-templates/daily-time-record/signer/pages/1?signable=dtr-staff-2026-03', headers: { cookie: staff.cookie } })
  t.equal(image.statusCode, 200)
  t.equal(image.headers['content-type'], 'image/png')
  t.equal((await app.inject({ url: '/app/signature-templates/daily-time-record/signer/pages/1?signable=dtr-admin-2026-03', headers: { cookie: staff.cookie } })).statusCode, 404)

  await app.inject({ method: 'DELETE', url: `/api/signatures/${staff.signature}`, headers: { cookie: staff.cookie } })
  t.equal((await getPage(app, url(staff.signature), staff.cookie)).statusCode, 404, 'revoked')
})
