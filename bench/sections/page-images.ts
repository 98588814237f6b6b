// Row 4: a page image at 144 DPI through PageImageCache and the rasterize worker pool, cold (new
// worker: thread + tsx + mupdf), warm render (a page not rendered before, worker up) and a memory
// hit, against `pdftoppm -r 144 -png` (poppler, a process per page) on the same pages.
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { LocalDisk } from '../../core/storage/disk.ts'
import { WorkerPool } from '../../core/workers/worker-pool.ts'
import { PageImageCache, RASTERIZE_WORKER } from '../../plugins/signature/rasterizer/page-image-cache.ts'
import { makePdf } from '../../test/fixtures/pdf/make-pdf.ts'
import { median, ms, percentile, pick, x, type Row } from '../lib/rows.ts'

const run_ = promisify(execFile)
const DPI = 144

export async function run(): Promise<Row[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-pages-'))
  try {
    const pages = pick(21, 6)
    const pdfPath = path.join(dir, 'document.pdf')
    await writeFile(pdfPath, await makePdf({ pages }))
    const pool = new WorkerPool({ module: RASTERIZE_WORKER, size: 1 })
    const cache = new PageImageCache({ pool, disk: new LocalDisk('bench', path.join(dir, 'cache')), dpi: DPI, maxMemoryBytes: 64 * 1024 * 1024 })

    let t0 = performance.now()
    const first = await cache.page(pdfPath, 1)
    const cold = performance.now() - t0
    if (first.source !== 'render') throw new Error('cold page was not rendered')

    const warm: number[] = []
    for (let page = 2; page <= pages; page++) {
      t0 = performance.now()
      const image = await cache.page(pdfPath, page)
      warm.push(performance.now() - t0)
      if (image.source !== 'render') throw new Error(`page ${page} came from ${image.source}`)
    }

    const hits: number[] = []
    for (let i = 0; i < pick(5000, 500); i++) {
      t0 = performance.now()
      const image = await cache.page(pdfPath, 1 + (i % pages))
      hits.push(performance.now() - t0)
      if (image.source !== 'memory') throw new Error('expected a memory hit')
    }

    // The same pages with poppler, as a user would run it: one process per page.
    const poppler: number[] = []
    for (let page = 2; page <= pages; page++) {
      t0 = performance.now()
      await run_('pdftoppm', ['-r', String(DPI), '-png', '-f', String(page), '-l', String(page), pdfPath, path.join(dir, `poppler-${page}`)])
      poppler.push(performance.now() - t0)
    }
    await pool.close()

    const warmMedian = median(warm)
    const popplerMedian = median(poppler)
    const ratio = warmMedian / popplerMedian
    const hitP50 = median(hits)
    const hitP99 = percentile(hits, 99)
    const data = { dpi: DPI, pngBytes: first.png.length, coldMs: cold, warmMs: warm, popplerMs: poppler, hitP50, hitP99, ratio }
    return [
      { id: '4a', what: `Page image 144 DPI, cold (new worker: thread, tsx, mupdf)`, ours: ms(cold), baseline: `pdftoppm ${ms(popplerMedian)}`, ratio: x(cold / popplerMedian), bar: '-', met: null, data },
      { id: '4b', what: `Page image 144 DPI, warm render (median of ${warm.length} pages) / pdftoppm -r 144 -png`, ours: ms(warmMedian), baseline: `pdftoppm ${ms(popplerMedian)}`, ratio: x(ratio), bar: '<= 0.50', met: ratio <= 0.5, data },
      { id: '4c', what: `Page image cache hit (memory; stat + key hash), ${hits.length} requests`, ours: `p50 ${ms(hitP50)}, p99 ${ms(hitP99)}`, baseline: '-', ratio: '-', bar: 'p99 < 2 ms', met: hitP99 < 2, data },
    ]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
