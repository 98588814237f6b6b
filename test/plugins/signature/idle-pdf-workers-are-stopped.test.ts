// SIGNATURE_WORKER_IDLE_MS reaches both of the app's pools: a PDF worker and a page-image worker
// left idle that long are stopped, and the next task still works (on a new thread).
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { makePdf } from '../../fixtures/pdf/make-pdf.ts'

// config/signature.ts reads the environment when it is first imported.
process.env.SIGNATURE_WORKER_IDLE_MS = '300'
const { buildTestApp } = await import('../../helpers/app.ts')

async function until(check: () => boolean, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25))
  return check()
}

t.test('idle workers of both pools are stopped; the next task starts one', async (t) => {
  const app = await buildTestApp(t)
  const dir = await mkdtemp(path.join(tmpdir(), 'idle-workers-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  const bytes = await makePdf({ pages: 1 })
  const file = path.join(dir, 'one.pdf')
  await writeFile(file, bytes)

  // Each checked right after its task: a cold page-image worker can take longer than 300 ms to start.
  await app.signature.pdf.run('inspectPdf', bytes)
  t.equal(app.signature.pdf.stats.workers, 1)
  await app.signature.pageImages.pages(file)
  t.equal(app.signature.pageImages.stats.workers, 1)
  t.ok(await until(() => app.signature.pdf.stats.workers === 0 && app.signature.pageImages.stats.workers === 0), 'both stopped after 300 ms idle')

  const summary = await app.signature.pdf.run('inspectPdf', bytes)
  t.equal(summary.pageCount, 1, 'a PDF task after that is answered')
  const image = await app.signature.pageImages.page(file, 1)
  t.ok(image, 'and a page image')
  t.equal(app.signature.pageImages.stats.workers, 1)
})
