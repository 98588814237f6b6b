import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PDFDocument } from 'pdf-lib'
import t from 'tap'
import { ChromiumPdfRenderer } from '../../../../plugins/signature/rendering/chromium-pdf-renderer.ts'

t.test('one browser, a bounded number of pages, closed on close()', { skip: ChromiumPdfRenderer.isAvailable() ? false : 'Chromium is not installed (set CHROMIUM_PATH)' }, async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'chromium-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const renderer = new ChromiumPdfRenderer({
    renderView: async (_view, data) => `<style>@page { size: 200pt 100pt; margin: 0 }</style><p>${String(data.n)}</p>`,
  }, { maxConcurrent: 2 })
  t.teardown(() => renderer.close())

  t.equal(renderer.stats().launched, false, 'nothing is launched before the first render')
  let peak = 0
  const probe = setInterval(() => { peak = Math.max(peak, renderer.stats().running) }, 1)
  const started = performance.now()
  const files = await Promise.all(Array.from({ length: 6 }, (_, n) => renderer.render('x', { n }, path.join(dir, `${n}.pdf`))))
  const elapsed = performance.now() - started
  clearInterval(probe)

  t.ok(peak <= 2, `at most 2 renders at once (saw ${peak})`)
  t.ok(renderer.stats().idlePages <= 2, 'at most 2 pages kept')
  for (const file of files) {
    const { width, height } = (await PDFDocument.load(await readFile(file))).getPage(0).getSize()
    t.same([Math.round(width), Math.round(height)], [200, 100], `${path.basename(file)}: the CSS page size`)
  }
  t.comment(`6 renders, 2 at a time, including browser launch: ${elapsed.toFixed(0)} ms`)

  await renderer.close()
  t.equal(renderer.stats().launched, false)
  await t.rejects(renderer.render('x', { n: 1 }, path.join(dir, 'after.pdf')), /closed/, 'a closed renderer refuses to render')
})

t.test('an explicit CHROMIUM_PATH that points nowhere makes the renderer unavailable', async (t) => {
  const saved = process.env.CHROMIUM_PATH
  process.env.CHROMIUM_PATH = '/nonexistent/chrome'
  t.teardown(() => { if (saved === undefined) delete process.env.CHROMIUM_PATH; else process.env.CHROMIUM_PATH = saved })
  t.equal(ChromiumPdfRenderer.isAvailable(), false)
  const renderer = new ChromiumPdfRenderer({ renderView: async () => '<p>x</p>' })
  await t.rejects(renderer.render('x', {}, '/tmp/never.pdf'), { code: 'ERR_RENDERER_UNAVAILABLE', statusCode: 503 })
})
