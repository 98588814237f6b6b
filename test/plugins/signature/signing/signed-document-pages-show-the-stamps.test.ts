import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { imageInkShare } from '../../../fixtures/pdf/checkers.ts'
import { EMPLOYEE_BOX, finalize, meta, signerWithSignature } from './helpers.ts'

t.test('GET /api/signatures/:uuid/pages/:page: the signed page with its stamp, for the signer and read-any only', async (t) => {
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const signable = 'dtr-staff-2026-02'
  const pageHeight = (await meta(app, staff, 'daily-time-record', { signature: staff.signature, signable })).json().data.pages[0].height
  const dpi = app.signature.pageImages.dpi
  const unsigned = await app.inject({ url: `/app/signature-templates/daily-time-record/signer/pages/1?signable=${signable}`, headers: { cookie: staff.cookie } })
  t.equal(unsigned.statusCode, 200)

  const answer = (await finalize(app, staff, 'daily-time-record', { signature: staff.signature, signable, placements: [EMPLOYEE_BOX] })).json().data
  t.equal(answer.page_image_url, `/api/signatures/${answer.signature_uuid}/pages/0`, 'finalize says where the signed pages are')
  const url = answer.page_image_url.replace('/pages/0', '/pages/1')
  const signed = await app.inject({ url, headers: { cookie: staff.cookie } })
  t.equal(signed.statusCode, 200)
  t.equal(signed.headers['content-type'], 'image/png')
  t.equal(signed.headers['cache-control'], 'private, no-cache')

  // Same page, same size; the employee box was empty before and holds the stamp now.
  t.same(signed.rawPayload.subarray(16, 24), unsigned.rawPayload.subarray(16, 24), 'same pixel size')
  const [before] = await imageInkShare(unsigned.rawPayload, pageHeight, [EMPLOYEE_BOX], dpi)
  const [after] = await imageInkShare(signed.rawPayload, pageHeight, [EMPLOYEE_BOX], dpi)
  t.ok(after! > before! + 0.05, `the stamp is drawn in its box (ink ${before!.toFixed(3)} -> ${after!.toFixed(3)})`)
  const away = { x: 72, y: 400, width: 240, height: 48 }
  const [awayBefore] = await imageInkShare(unsigned.rawPayload, pageHeight, [away], dpi)
  const [awayAfter] = await imageInkShare(signed.rawPayload, pageHeight, [away], dpi)
  t.ok(awayBefore! > 0.02 && Math.abs(awayAfter! - awayBefore!) < 0.01, `the rest of the page is the record as it was (ink ${awayBefore!.toFixed(3)} -> ${awayAfter!.toFixed(3)})`)

  const etag = signed.headers.etag as string
  t.equal((await app.inject({ url, headers: { cookie: staff.cookie, 'if-none-match': etag } })).statusCode, 304)

  t.equal((await app.inject({ url, headers: { cookie: await login(app, DEMO.admin.email) } })).statusCode, 200, 'admin (signatures:*)')
  t.equal((await app.inject({ url, headers: { cookie: await login(app, DEMO.manager.email), accept: 'application/json' } })).statusCode, 404, 'manager: not theirs')
  t.equal((await app.inject({ url })).statusCode, 401)
  const library = await app.inject({ url: `/api/signatures/${staff.signature}/pages/1`, headers: { cookie: staff.cookie, accept: 'application/json' } })
  t.equal(library.statusCode, 404, 'a library signature has no pages')
  t.equal(library.json().code, 'ERR_NOT_FOUND')
  for (const [path, status] of [['/pages/2', 404], ['/pages/0', 400], ['/pages/x', 400], ['/pages/1.5', 400]] as const) {
    const response = await app.inject({ url: answer.page_image_url.replace('/pages/0', path), headers: { cookie: staff.cookie, accept: 'application/json' } })
    t.equal(response.statusCode, status, path)
  }
  t.equal((await app.inject({ url: '/api/signatures/..%2F..%2Fetc/pages/1', headers: { cookie: staff.cookie, accept: 'application/json' } })).statusCode, 404, 'no path from the uuid')
})
