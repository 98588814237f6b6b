import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { PDFDocument } from 'pdf-lib'
import t from 'tap'
import { PROJECT_ROOT } from '../../../config/app.ts'
import { signature } from '../../../config/signature.ts'
import { createTemplateRegistry } from '../../../plugins/signature/create-template-registry.ts'
import { ChromiumPdfRenderer } from '../../../plugins/signature/rendering/chromium-pdf-renderer.ts'
import { parseSignatureConfig } from '../../../plugins/signature/signature-config.ts'

const run = promisify(execFile)

t.test('the daily time record renders through Chromium to a sound US Letter landscape PDF', { skip: ChromiumPdfRenderer.isAvailable() ? false : 'Chromium is not installed (set CHROMIUM_PATH)' }, async (t) => {
  const storagePath = await mkdtemp(path.join(tmpdir(), 'dtr-'))
  const registry = createTemplateRegistry(parseSignatureConfig(signature), { storagePath, viewsRoot: path.join(PROJECT_ROOT, 'host-app', 'views') })
  t.teardown(async () => {
    await registry.close()
    await rm(storagePath, { recursive: true, force: true })
  })

  const template = registry.get('daily-time-record')
  t.equal(template.label(), 'Daily Time Record', 'label defaulted from the key')

  let started = performance.now()
  const sample = await template.renderSample()
  const cold = performance.now() - started
  t.ok(sample.startsWith(storagePath), 'written on the storage disk')

  const { stdout } = await run('qpdf', ['--check', sample])
  t.match(stdout, /No syntax or stream encoding errors found/, 'qpdf --check finds nothing wrong')

  const document = await PDFDocument.load(await readFile(sample))
  t.equal(document.getPageCount(), 1)
  const { width, height } = document.getPage(0).getSize()
  t.same([Math.round(width), Math.round(height)], [792, 612], 'US Letter landscape, in points')
  for (const slot of template.slots()) {
    t.ok(slot.defaultY >= 60 && slot.defaultY <= 120, `${slot.key}: signature line near the bottom`)
    t.ok(slot.defaultX + slot.defaultWidth <= width && slot.defaultY + slot.defaultHeight <= height, `${slot.key}: on the page`)
  }

  // Determinism: rendering the same inputs again (file removed) gives the same path and bytes.
  const firstBytes = await readFile(sample)
  await rm(sample)
  started = performance.now()
  const again = await template.renderSample()
  const warm = performance.now() - started
  t.equal(again, sample, 'same path')
  t.ok(firstBytes.equals(await readFile(again)), 'same bytes')

  // Production: a record's own PDF, named after its id.
  const record = { id: 'dtr-42', employeeId: 'u-staff', employeeName: 'Sam Staff', supervisorId: 'u-manager', supervisorName: 'Max Manager',
    period: 'April 2026', department: 'Ops', days: [{ date: '2026-04-01', timeIn: '09:00', breakOut: '12:00', breakIn: '12:30', timeOut: '17:30', hours: 8 }] }
  started = performance.now()
  const produced = await template.renderFor(record)
  const production = performance.now() - started
  t.match(produced, /documents\/daily-time-record\/dtr-42\.pdf$/)
  t.ok((await stat(produced)).size > 1000)
  await run('qpdf', ['--check', produced])

  t.comment(`render times: cold (browser launch + render) ${cold.toFixed(0)} ms, warm sample ${warm.toFixed(0)} ms, record ${production.toFixed(0)} ms`)
})
