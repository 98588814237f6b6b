import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { PDFDocument } from 'pdf-lib'
import t from 'tap'
import { ChromiumPdfRenderer } from '../../../plugins/signature/rendering/chromium-pdf-renderer.ts'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'

const run = promisify(execFile)

// No Chromium for this whole process: CHROMIUM_PATH set explicitly to nothing usable.
process.env.CHROMIUM_PATH = '/nonexistent/chromium'

t.test('with no browser, the payslip still renders and the Chromium templates say what to install', async (t) => {
  t.equal(ChromiumPdfRenderer.isAvailable(), false, 'precondition: Chromium is not found')
  const app = await buildTestApp(t)
  const registry = app.signature.registry

  const payslip = registry.get('payslip')
  t.ok(registry.isAvailable(payslip))
  const sample = await payslip.renderSample()
  await run('qpdf', ['--check', sample])
  const document = await PDFDocument.load(await readFile(sample))
  t.same(document.getPages().map((p) => p.getSize()).map(({ width, height }) => [Math.round(width), Math.round(height)]), [[595, 842]], 'one A4 page')

  // Same inputs, same bytes (pdf-lib with fixed metadata).
  const bytes = await readFile(sample)
  const { rm } = await import('node:fs/promises')
  await rm(sample)
  t.equal(await payslip.renderSample(), sample)
  t.ok(bytes.equals(await readFile(sample)), 'deterministic bytes')

  // A record's PDF through the trait: getSignablePdfPath() -> renderFor().
  const { data } = (await app.inject({ url: '/api/signables/payslip', headers: { cookie: await login(app, DEMO.staff.email) } })).json() as { data: Array<{ id: string }> }
  t.ok(data.length >= 1)

  const daily = registry.get('daily-time-record')
  t.equal(registry.isAvailable(daily), false, 'the Chromium template is marked unavailable')
  await t.rejects(daily.renderSample(), { code: 'ERR_RENDERER_UNAVAILABLE', statusCode: 503, message: /apt-get install -y chromium|CHROMIUM_PATH/ })

  const cookie = await login(app, DEMO.admin.email)
  const response = await app.inject({ url: '/admin/signature-templates/daily-time-record/sample.pdf', headers: { cookie, accept: 'application/json' } })
  t.equal(response.statusCode, 503)
  t.equal(response.json().code, 'ERR_RENDERER_UNAVAILABLE')
  const list = await app.inject({ url: '/admin/signature-templates', headers: { cookie } })
  t.equal(list.statusCode, 200, 'the list still works')
  t.match(list.body, /data-template="daily-time-record"[\s\S]*?data-unavailable/, 'and shows the template as unavailable')
})
