import { execFile } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { promisify } from 'node:util'
import { PDFDocument } from 'pdf-lib'
import t from 'tap'
import { rendersSamplePageImage } from '../../../plugins/signature/contracts/renders-sample-page-image.ts'
import { ChromiumPdfRenderer } from '../../../plugins/signature/rendering/chromium-pdf-renderer.ts'
import { buildTestApp } from '../../helpers/app.ts'

const run = promisify(execFile)

t.test('the contract: two A4 pages, both parties on the last, page images at 72 DPI', { skip: ChromiumPdfRenderer.isAvailable() ? false : 'Chromium is not installed (set CHROMIUM_PATH)' }, async (t) => {
  const app = await buildTestApp(t)
  const contract = app.signature.registry.get('contract')
  const sample = await contract.renderSample()
  await run('qpdf', ['--check', sample])
  const document = await PDFDocument.load(await readFile(sample))
  const sizes = document.getPages().map((p) => p.getSize())
  t.ok(sizes.length >= 2, 'two or more pages')
  t.ok(sizes.every(({ width, height }) => Math.round(width) === 595 && Math.round(height) === 842), 'A4 portrait')

  const slots = contract.slots()
  t.ok(slots.length >= 2)
  t.ok(slots.every((s) => s.defaultPage === sizes.length), 'every party signs on the last page')
  t.same(slots.map((s) => s.signatory), ['employerId', 'employeeId', undefined], 'both parties bound to the record; the optional witness to nobody')
  t.same(slots.filter((s) => s.required).map((s) => s.key), ['employer', 'employee'])

  t.ok(rendersSamplePageImage(contract), 'implements RendersSamplePageImage')
  if (!rendersSamplePageImage(contract)) return
  t.equal(await contract.sampleImagePageCount(), sizes.length)
  for (let page = 1; page <= sizes.length; page++) {
    const png = await readFile(await contract.renderSampleAsImage(page))
    t.equal(png.subarray(1, 4).toString(), 'PNG')
    // IHDR: width and height, big-endian, at bytes 16 and 20. One pixel per point.
    t.same([png.readUInt32BE(16), png.readUInt32BE(20)], [Math.round(sizes[page - 1]!.width), Math.round(sizes[page - 1]!.height)], `page ${page} image is the page size in points`)
  }
  await t.rejects(contract.renderSampleAsImage(sizes.length + 1), RangeError)
  await t.rejects(contract.renderSampleAsImage(0), RangeError)
})
