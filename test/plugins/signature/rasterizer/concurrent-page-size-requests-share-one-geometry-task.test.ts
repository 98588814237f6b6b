import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PDFDocument } from 'pdf-lib'
import t from 'tap'
import { LocalDisk } from '../../../../core/storage/disk.ts'
import { WorkerPool } from '../../../../core/workers/worker-pool.ts'
import { PageImageCache, RASTERIZE_WORKER } from '../../../../plugins/signature/rasterizer/page-image-cache.ts'

// The designer page warms its first page image while the browser asks for the page sizes: the
// two must not each open the document in the worker (on a one-worker pool the second would wait
// behind the first).
t.test('concurrent page-size requests for one file run one geometry task; a later file runs its own', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'geometry-'))
  const tasks: string[] = []
  const pool = new WorkerPool({ module: RASTERIZE_WORKER, size: 1, onTaskSettled: (task) => tasks.push(task) })
  t.teardown(async () => { await pool.close(); await rm(dir, { recursive: true, force: true }) })
  const doc = await PDFDocument.create()
  doc.addPage([612, 792])
  const pdfPath = path.join(dir, 'a.pdf')
  await writeFile(pdfPath, await doc.save())
  const cache = new PageImageCache({ pool, disk: new LocalDisk('cache', path.join(dir, 'cache')), dpi: 72, maxMemoryBytes: 1024 * 1024 })

  const sizes = await Promise.all(Array.from({ length: 5 }, () => cache.pages(pdfPath)))
  t.ok(sizes.every((s) => s[0]!.width === 612 && s[0]!.height === 792))
  t.same(tasks, ['geometry'], 'five callers, one task')
  await cache.pages(pdfPath)
  t.same(tasks, ['geometry'], 'then from memory')

  const other = path.join(dir, 'b.pdf')
  await writeFile(other, await doc.save())
  await Promise.all([cache.pages(other), cache.pages(other)])
  t.same(tasks, ['geometry', 'geometry'])
})

t.test('a failed geometry task is not kept: the next request tries again', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'geometry-'))
  const pool = new WorkerPool({ module: RASTERIZE_WORKER, size: 1 })
  t.teardown(async () => { await pool.close(); await rm(dir, { recursive: true, force: true }) })
  const pdfPath = path.join(dir, 'broken.pdf')
  await writeFile(pdfPath, 'not a pdf')
  const cache = new PageImageCache({ pool, disk: new LocalDisk('cache', path.join(dir, 'cache')), dpi: 72, maxMemoryBytes: 1024 * 1024 })
  await t.rejects(cache.pages(pdfPath))
  const doc = await PDFDocument.create()
  doc.addPage([100, 200])
  await writeFile(pdfPath, await doc.save())
  t.same(await cache.pages(pdfPath), [{ page: 1, width: 100, height: 200 }])
})
