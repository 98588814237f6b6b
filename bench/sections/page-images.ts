// Row 4: page images at 144 DPI as npm start makes them (compiled JavaScript, dist/), against
// `pdftoppm -r 144 -png` (poppler, a process per page) on the same pages, wall time and CPU time.
// 4a: the designer opened on a fresh compiled server (its own process), as a browser does it: the
//     page, its styles and scripts, the page sizes, page 1 (bench/lib/designer-first-image.ts);
//     median over fresh starts.
// 4b: a warm render (worker up, page not rendered before) through PageImageCache and a pool whose
//     worker runs the compiled worker module (dist/), as the server's does.
// 4c: a memory hit.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import { LocalDisk } from '../../core/storage/disk.ts'
import { WorkerPool } from '../../core/workers/worker-pool.ts'
import { PageImageCache, rasterizerShared } from '../../plugins/signature/rasterizer/page-image-cache.ts'
import { makePdf } from '../../test/fixtures/pdf/make-pdf.ts'
import { coldRun, pdftoppm, type ColdRun, type Timed } from '../lib/designer-first-image.ts'
import { median, ms, percentile, pick, x, type Row } from '../lib/rows.ts'
import { compileOnce, threadsCpuMicros } from '../lib/start-server.ts'

const DPI = 144
const COMPILED_WORKER = pathToFileURL(path.join(import.meta.dirname, '..', '..', 'dist', 'plugins', 'signature', 'rasterizer', 'rasterize-worker.js'))

const wallCpu = (t: { wall: number; cpu: number }) => `${ms(t.wall)} (CPU ${ms(t.cpu)})`

async function cold(): Promise<{ runs: ColdRun[]; ours: Timed; poppler: Timed; ratio: number; cpuRatio: number }> {
  const runs: ColdRun[] = []
  for (let i = 0; i < pick(5, 2); i++) runs.push(await coldRun('payslip'))
  const m = (f: (r: ColdRun) => number) => median(runs.map(f))
  return {
    runs,
    ours: { wall: m((r) => r.total.wall), cpu: m((r) => r.total.cpu) },
    poppler: { wall: m((r) => r.poppler.wall), cpu: m((r) => r.poppler.cpu) },
    // Each start against its own pdftoppm, measured right after it: the machine's load moves both.
    ratio: m((r) => r.total.wall / r.poppler.wall),
    cpuRatio: m((r) => r.total.cpu / r.poppler.cpu),
  }
}

export async function run(): Promise<Row[]> {
  await compileOnce()
  const first = await cold()
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-pages-'))
  try {
    const pages = pick(21, 6)
    const pdfPath = path.join(dir, 'document.pdf')
    await writeFile(pdfPath, await makePdf({ pages }))
    const pool = new WorkerPool({ module: COMPILED_WORKER, size: 1, prepareShared: rasterizerShared })
    const cache = new PageImageCache({ pool, disk: new LocalDisk('bench', path.join(dir, 'cache')), dpi: DPI, maxMemoryBytes: 64 * 1024 * 1024 })
    if ((await cache.page(pdfPath, 1)).source !== 'render') throw new Error('page 1 was not rendered')

    // CPU of every thread of this process: the worker's render, and the little the cache does here.
    const warm: Timed[] = []
    for (let page = 2; page <= pages; page++) {
      const cpu0 = await threadsCpuMicros(process.pid)
      const t0 = performance.now()
      const image = await cache.page(pdfPath, page)
      warm.push({ wall: performance.now() - t0, cpu: (await threadsCpuMicros(process.pid) - cpu0) / 1000 })
      if (image.source !== 'render') throw new Error(`page ${page} came from ${image.source}`)
    }

    const hits: number[] = []
    for (let i = 0; i < pick(5000, 500); i++) {
      const t0 = performance.now()
      const image = await cache.page(pdfPath, 1 + (i % pages))
      hits.push(performance.now() - t0)
      if (image.source !== 'memory') throw new Error('expected a memory hit')
    }
    await pool.close()

    // The same pages with poppler, as a user would run it: one process per page.
    const poppler: Timed[] = []
    for (let page = 2; page <= pages; page++) poppler.push(await pdftoppm(pdfPath, path.join(dir, `poppler-${page}`), page))

    const warmMedian = { wall: median(warm.map((t) => t.wall)), cpu: median(warm.map((t) => t.cpu)) }
    const popplerMedian = { wall: median(poppler.map((t) => t.wall)), cpu: median(poppler.map((t) => t.cpu)) }
    const ratio = warmMedian.wall / popplerMedian.wall
    const hitP50 = median(hits)
    const hitP99 = percentile(hits, 99)
    const coldData = { dpi: DPI, template: 'payslip', starts: first.runs, ours: first.ours, poppler: first.poppler, ratio: first.ratio, cpuRatio: first.cpuRatio }
    const warmData = { dpi: DPI, warm, poppler, hitP50, hitP99, ratio }
    return [
      {
        id: '4a', what: `Page image 144 DPI, cold: designer opened on a fresh npm start server (page, assets, sizes, page 1 of the payslip sample), median of ${first.runs.length} starts`,
        ours: wallCpu(first.ours), baseline: `pdftoppm ${wallCpu(first.poppler)}`, ratio: `${x(first.ratio)} (CPU ${x(first.cpuRatio)})`, bar: '<= 3.00', met: first.ratio <= 3, data: coldData,
      },
      {
        id: '4b', what: `Page image 144 DPI, warm render (compiled worker up, median of ${warm.length} pages not rendered before) / pdftoppm -r 144 -png`,
        ours: wallCpu(warmMedian), baseline: `pdftoppm ${wallCpu(popplerMedian)}`, ratio: `${x(ratio)} (CPU ${x(warmMedian.cpu / popplerMedian.cpu)})`, bar: '<= 0.50', met: ratio <= 0.5, data: warmData,
      },
      { id: '4c', what: `Page image cache hit (memory; stat + key hash), ${hits.length} requests`, ours: `p50 ${ms(hitP50)}, p99 ${ms(hitP99)}`, baseline: '-', ratio: '-', bar: 'p99 < 2 ms', met: hitP99 < 2, data: warmData },
    ]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
