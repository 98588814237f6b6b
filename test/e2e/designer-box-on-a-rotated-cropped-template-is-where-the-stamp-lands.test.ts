// Issue 17 end to end: an administrator drags a slot's box on a template whose page is turned
// (/Rotate 90) and cropped off the origin; the session signed from that template has the stamp
// where the box was dropped, upright, as poppler's pdftoppm -cropbox (what a viewer shows) renders it.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { degrees, PDFDocument } from 'pdf-lib'
import t from 'tap'
import { SlotDefinition } from '../../plugins/signature/contracts/slot-definition.ts'
import { login } from '../helpers/app.ts'
import { pageErrors, SCREENSHOTS, signedInPage, startBrowserSession } from '../helpers/browser.ts'
import { csrfFor } from '../helpers/pages.ts'
import { mupdfChangeHistory, pdfsig, qpdfCheck, quadrantInk, renderAsViewer } from '../fixtures/pdf/checkers.ts'
import { makeCornerStampPng } from '../fixtures/pdf/stamp-image.ts'

const TEMPLATE = 'daily-time-record'
// MediaBox 612 x 792, CropBox [50 100 550 740] (500 x 640), turned a quarter clockwise: shown 640 x 500.
const SHOWN = { width: 640, height: 500 }

t.test('a box dragged on a turned, cropped page is where the signed stamp lands', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'designer-geometry-e2e-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const doc = await PDFDocument.create()
  const sheet = doc.addPage([612, 792])
  sheet.setCropBox(50, 100, 500, 640)
  sheet.setRotation(degrees(90))
  const file = path.join(dir, 'turned.pdf')
  await writeFile(file, await doc.save({ useObjectStreams: false }))

  const { baseUrl, browser, app } = await startBrowserSession(t, {
    // Replaces the host's template of this key, so its records (and their signatories) sign this page.
    beforeListen: (app) => app.signature.registry.register({
      key: () => TEMPLATE,
      label: () => 'Turned and cropped',
      slots: () => [
        new SlotDefinition({ key: 'employee', label: 'Employee', defaultPage: 1, defaultX: 30, defaultY: 30, defaultWidth: 150, defaultHeight: 60, required: true, signatory: 'employeeId', order: 1 }),
        new SlotDefinition({ key: 'supervisor', label: 'Supervisor', defaultPage: 1, defaultX: 400, defaultY: 30, defaultWidth: 150, defaultHeight: 60, required: true, signatory: 'supervisorId', order: 2 }),
      ],
      renderSample: async () => file,
      renderFor: async () => file,
    }),
  })
  const page = await signedInPage(browser, baseUrl, 'admin@example.com')
  await page.goto(`/admin/signature-templates/${TEMPLATE}/design`)
  const image = page.locator('[data-page-image]')
  const box = page.locator('[data-slot-box="employee"]')
  await box.waitFor({ state: 'visible', timeout: 60_000 })

  const img = (await image.boundingBox())!
  t.ok(Math.abs(img.width / img.height - SHOWN.width / SHOWN.height) < 0.01, `the page is shown turned and cropped (${img.width} x ${img.height} px)`)
  const start = (await box.boundingBox())!
  const scale = img.width / SHOWN.width
  // Drop the box's top-left corner at 55 % across and 20 % down the shown page.
  const target = { left: Math.round(img.width * 0.55), top: Math.round(img.height * 0.2) }
  const grab = { x: start.x + 20, y: start.y + start.height / 2 }
  await page.mouse.move(grab.x, grab.y)
  await page.mouse.down()
  await page.mouse.move(grab.x + 30, grab.y - 20, { steps: 4 })
  await page.mouse.move(img.x + target.left + 20, img.y + target.top + start.height / 2, { steps: 12 })
  await page.mouse.up()
  await page.locator('[data-save-slot="employee"]').click()
  await page.locator('[data-slot-feedback="employee"]', { hasText: 'Saved' }).waitFor()
  await page.screenshot({ path: path.join(SCREENSHOTS, 'designer-turned-cropped-saved.png'), fullPage: true })
  t.same(pageErrors(page), [])

  // Where the drop is in points, from the shown page alone (y from the bottom).
  const dropped = { x: target.left / scale, y: SHOWN.height - (target.top + start.height) / scale, width: 150, height: 60 }
  const metaUrl = (await page.locator('[data-designer]').getAttribute('data-meta-url'))!
  const saved = ((await (await page.request.get(metaUrl)).json()) as { slots: Array<{ key: string; x: number; y: number; width: number; height: number }> }).slots.find((s) => s.key === 'employee')!
  t.ok(Math.abs(saved.x - dropped.x) <= 1 && Math.abs(saved.y - dropped.y) <= 1, `saved at (${saved.x}, ${saved.y}), dropped at (${dropped.x.toFixed(1)}, ${dropped.y.toFixed(1)})`)

  // A session signed from the template: the employee's stamp is where the box was dropped.
  const admin = await login(app, 'admin@example.com')
  const stamp = `data:image/png;base64,${makeCornerStampPng().toString('base64')}`
  let download = ''
  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: TEMPLATE, signable: 'dtr-staff-2026-03' } })
  t.equal(created.statusCode, 201, created.body.slice(0, 300))
  for (const [email, request] of [['staff@example.com', created.json().data.requests[0]], ['manager@example.com', created.json().data.requests[1]]] as const) {
    const cookie = await login(app, email)
    const csrf = await csrfFor(app, cookie)
    const signature = (await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie, 'x-csrf-token': csrf }, payload: { label: 'Corner', image: stamp, certificate: { mode: 'issue' } } })).json().data.uuid
    const answer = await app.inject({ method: 'POST', url: `/app/signature-templates/${TEMPLATE}/signer/finalize`, headers: { cookie, 'x-csrf-token': csrf, accept: 'application/json' }, payload: { signature, request: request.id, placements: [] } })
    t.equal(answer.statusCode, 200, answer.body.slice(0, 300))
    download = answer.json().data.download_url
  }
  const signed = (await app.inject({ url: download, headers: { cookie: admin } })).rawPayload
  const [topLeft, ...rest] = await quadrantInk(await renderAsViewer(signed, 1, 144), SHOWN, dropped)
  t.ok(topLeft! > 0.5 && rest.every((ink) => ink < 0.02), `pdftoppm -cropbox: the stamp is in the dropped box, upright (ink by quadrant ${[topLeft, ...rest].map((n) => n!.toFixed(2)).join(' ')})`)
  const { signatures } = await pdfsig(signed)
  // The sealing's document timestamp (B-LTA) is listed too; pdfsig 22.12 cannot check it.
  t.same(signatures.filter((s) => s.fieldName !== 'Document timestamp').map((s) => s.validation), Array(3).fill('Signature is Valid.'), 'pdfsig: the certification and both signers, valid')
  t.ok((await qpdfCheck(signed)).clean, 'qpdf --check')
  t.equal((await mupdfChangeHistory(signed)).verdict, 0, 'mupdf: no forbidden change')
})
