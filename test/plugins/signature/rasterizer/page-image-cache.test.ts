import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { PDFDocument, rgb } from 'pdf-lib'
import t from 'tap'
import { LocalDisk } from '../../../../core/storage/disk.ts'
import { WorkerPool } from '../../../../core/workers/worker-pool.ts'
import { PageImageCache, RASTERIZE_WORKER } from '../../../../plugins/signature/rasterizer/page-image-cache.ts'

async function samplePdf(pages: Array<[number, number]>, mark = rgb(0, 0, 0)) {
  const doc = await PDFDocument.create()
  for (const [w, h] of pages) doc.addPage([w, h]).drawRectangle({ x: 10, y: 10, width: 50, height: 50, color: mark })
  return doc.save()
}

function pngSize(png: Buffer) {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) }
}

t.test('page images: render once, then memory; DPI and mtime change the key; disk survives a restart', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'raster-'))
  const pool = new WorkerPool({ module: RASTERIZE_WORKER, size: 1 })
  t.teardown(async () => { await pool.close(); await rm(dir, { recursive: true, force: true }) })
  const pdfPath = path.join(dir, 'sample.pdf')
  await writeFile(pdfPath, await samplePdf([[792, 612], [595, 842]]))
  const disk = new LocalDisk('cache', path.join(dir, 'cache'))
  const make = (dpi: number) => new PageImageCache({ pool, disk, dpi, maxMemoryBytes: 10 * 1024 * 1024 })

  const cache = make(144)
  t.same(await cache.pages(pdfPath), [{ page: 1, width: 792, height: 612 }, { page: 2, width: 595, height: 842 }])

  const concurrent = await Promise.all(Array.from({ length: 8 }, () => cache.page(pdfPath, 1)))
  t.equal(cache.stats.render, 1, 'eight concurrent requests, one render')
  t.same(pngSize(concurrent[0]!.png), { width: 1584, height: 1224 }, 'US Letter landscape at 144 DPI')
  t.ok(concurrent.every((c) => c.etag === concurrent[0]!.etag))
  t.equal((await cache.page(pdfPath, 1)).source, 'memory')

  const low = make(72)
  const at72 = await low.page(pdfPath, 1)
  t.equal(at72.source, 'render', 'another DPI is another key')
  t.not(at72.etag, concurrent[0]!.etag)
  t.same(pngSize(at72.png), { width: 792, height: 612 })

  const restarted = make(144)
  t.equal((await restarted.page(pdfPath, 1)).source, 'disk', 'a new process finds the file on disk')

  await writeFile(pdfPath, await samplePdf([[792, 612]], rgb(1, 0, 0)))
  const later = new Date(Date.now() + 5000)
  await utimes(pdfPath, later, later)
  const changed = await restarted.page(pdfPath, 1)
  t.equal(changed.source, 'render', 'a new mtime invalidates')
  t.not(changed.etag, concurrent[0]!.etag)
  t.same(await restarted.pages(pdfPath), [{ page: 1, width: 792, height: 612 }], 'geometry follows the new file')
  await t.rejects(restarted.page(pdfPath, 2), { code: 'ERR_PAGE_NOT_FOUND', statusCode: 404 })
})

t.test('the memory cache stays within its byte bound', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'raster-'))
  const pool = new WorkerPool({ module: RASTERIZE_WORKER, size: 1 })
  t.teardown(async () => { await pool.close(); await rm(dir, { recursive: true, force: true }) })
  const pdfPath = path.join(dir, 'many.pdf')
  await writeFile(pdfPath, await samplePdf(Array.from({ length: 6 }, () => [595, 842] as [number, number])))
  const first = await new PageImageCache({ pool, disk: new LocalDisk('c', path.join(dir, 'c')), dpi: 72, maxMemoryBytes: 1 }).page(pdfPath, 1)
  const bound = first.png.length * 2.5
  const cache = new PageImageCache({ pool, disk: new LocalDisk('c', path.join(dir, 'c')), dpi: 72, maxMemoryBytes: bound })
  for (let page = 1; page <= 6; page++) await cache.page(pdfPath, page)
  t.ok(cache.stats.memoryBytes <= bound, `${cache.stats.memoryBytes} <= ${bound} bytes`)
  t.ok(cache.stats.memoryEntries < 6, `${cache.stats.memoryEntries} of 6 pages kept in memory`)
})

t.test('rotated, cropped and UserUnit pages are measured and drawn as displayed', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'raster-'))
  const pool = new WorkerPool({ module: RASTERIZE_WORKER, size: 1 })
  t.teardown(async () => { await pool.close(); await rm(dir, { recursive: true, force: true }) })
  const cache = new PageImageCache({ pool, disk: new LocalDisk('c', path.join(dir, 'c')), dpi: 72, maxMemoryBytes: 1e6 })

  // Was 422 ERR_PAGE_GEOMETRY_UNSUPPORTED; the issue 17 convention measures the page as a viewer shows it.
  const { degrees, PDFName, PDFNumber } = await import('pdf-lib')
  const doc = await PDFDocument.create()
  doc.addPage([595, 842])
  doc.addPage([595, 842]).setRotation(degrees(90))
  doc.addPage([595, 842]).setCropBox(20, 30, 500, 700)
  const big = doc.addPage([595, 842])
  big.setRotation(degrees(270))
  big.node.set(PDFName.of('UserUnit'), PDFNumber.of(2))
  await writeFile(path.join(dir, 'geometry.pdf'), await doc.save())
  t.same(await cache.pages(path.join(dir, 'geometry.pdf')), [
    { page: 1, width: 595, height: 842 },
    { page: 2, width: 842, height: 595 },
    { page: 3, width: 500, height: 700 },
    { page: 4, width: 1684, height: 1190 },
  ])
  for (const [page, size] of [[2, { width: 842, height: 595 }], [3, { width: 500, height: 700 }], [4, { width: 1684, height: 1190 }]] as const) {
    t.same(pngSize((await cache.page(path.join(dir, 'geometry.pdf'), page)).png), size, `page ${page}'s image is the page as displayed`)
  }

  await writeFile(path.join(dir, 'bogus.pdf'), 'not a pdf at all')
  await t.rejects(cache.pages(path.join(dir, 'bogus.pdf')), { code: 'ERR_PDF_INVALID', statusCode: 422 })
})
