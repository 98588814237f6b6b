// Issue 20, item 3: the session page previews the document: each page of the current revision as
// an image, for the people who may see the session (the API's 404 for anyone else), with the
// signatures made so far drawn in.
import t from 'tap'
import { imageInkShare } from '../../../fixtures/pdf/checkers.ts'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { attributeValues, getPage } from '../../../helpers/pages.ts'
import { finalize, signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(120_000)

t.test('the preview shows each page of the current revision to the session\'s people only', async (t) => {
  const app = await buildTestApp(t)
  const admin = await signerWithSignature(app, DEMO.admin.email, 'Ada')
  const stranger = await login(app, DEMO.staff.email)
  const created = (await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin.cookie }, payload: { template: 'payslip', signable: 'payslip-manager-2026-03', mode: 'sequential' } })).json().data
  const page = await getPage(app, `/app/sessions/${created.id}`, admin.cookie)
  t.equal(page.statusCode, 200)
  const images = attributeValues(page.body.slice(page.body.indexOf('data-preview')), 'src').filter((src) => src.includes('/pages/'))
  t.same(images, [`/api/signing-sessions/${created.id}/pages/1`], 'one image per page of the payslip')
  t.match(page.body, /alt="Page 1 of 1, with the signatures made so far"/, 'described for screen readers')

  const image = (cookie: string, n = 1) => app.inject({ url: `/api/signing-sessions/${created.id}/pages/${n}`, headers: { cookie } })
  const before = await image(admin.cookie)
  t.equal(before.statusCode, 200)
  t.equal(before.headers['content-type'], 'image/png')
  t.same([(await image(stranger)).statusCode, (await image(stranger)).json().code], [404, 'ERR_SESSION_NOT_FOUND'], 'no part in the session: the 404 the API gives')
  t.equal((await image(admin.cookie, 2)).statusCode, 404, 'a page the document lacks')
  t.equal((await app.inject({ url: `/api/signing-sessions/${created.id}/pages/1` })).statusCode, 401, 'signed out')

  const request = created.requests.find((r: { slot: string }) => r.slot === 'payroll').id
  t.equal((await finalize(app, admin, 'payslip', { signature: admin.signature, request, placements: [] })).statusCode, 200)
  const after = await image(admin.cookie)
  t.not(after.headers.etag, before.headers.etag, 'a new revision, a new image')
  const dpi = 144
  const whole = (png: Buffer) => imageInkShare(png, 842, [{ x: 0, y: 0, width: 595, height: 842 }], dpi)
  const [inkBefore] = await whole(before.rawPayload)
  const [inkAfter] = await whole(after.rawPayload)
  t.ok(inkAfter! > inkBefore!, `the payroll officer's stamp is drawn in (ink ${inkBefore!.toFixed(4)} -> ${inkAfter!.toFixed(4)})`)
})
