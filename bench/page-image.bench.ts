// The designer's page image (issue 5): first image cold, warm render, cache hits, and mupdf
// against `pdftoppm -r 144 -png` on the same page of the real samples (daily time record from
// Chromium, payslip from pdf-lib). Run: node --import tsx bench/page-image.bench.ts [runs]
import { median } from './lib/rows.ts'
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { promisify } from 'node:util'
import { LocalDisk } from '../core/storage/disk.ts'
import { WorkerPool } from '../core/workers/worker-pool.ts'
import { buildApp } from '../host-app/app.ts'
import { PageImageCache, RASTERIZE_WORKER } from '../plugins/signature/rasterizer/page-image-cache.ts'
import { rasterizePage } from '../plugins/signature/rasterizer/rasterize-page.ts'

const exec = promisify(execFile)
const DPI = 144
const RUNS = Number(process.argv[2] ?? 15)

const ms = (value: number) => `${value.toFixed(1)} ms`

async function time(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now()
  await fn()
  return performance.now() - t0
}

async function repeat(fn: (i: number) => Promise<unknown> | unknown): Promise<number> {
  const samples: number[] = []
  for (let i = 0; i < RUNS; i++) samples.push(await time(() => fn(i)))
  return median(samples)
}

const dir = await mkdtemp(path.join(tmpdir(), 'bench-page-image-'))
const app = await buildApp({ env: { STORAGE_PATH: path.join(dir, 'storage') } })
try {
  await app.ready()
  const samples = {
    'daily-time-record (Letter landscape, Chromium)': await app.signature.registry.get('daily-time-record').renderSample(),
    'payslip (A4, pdf-lib)': await app.signature.registry.get('payslip').renderSample(),
  }
  console.log(`Page 1 at ${DPI} DPI; medians of ${RUNS} runs unless said otherwise\n`)
  for (const [name, pdfPath] of Object.entries(samples)) {
    const pool = new WorkerPool({ module: RASTERIZE_WORKER, size: 1 })
    const cacheAt = (sub: string) => new PageImageCache({ pool, disk: new LocalDisk('bench', path.join(dir, sub)), dpi: DPI, maxMemoryBytes: 64 * 1024 * 1024 })
    const cache = cacheAt(`cache-${name.length}`)
    // Cold: a new worker thread (tsx + mupdf WASM) and the first render, as after a restart with an empty disk.
    const cold = await time(() => cache.page(pdfPath, 1))
    const memory = await repeat(() => cache.page(pdfPath, 1))
    const disk = await repeat((i) => cacheAt(`cache-${name.length}`).page(pdfPath, 1).then((r) => { if (r.source !== 'disk') throw new Error(`expected disk, got ${r.source} (${i})`) }))
    const warmRender = await repeat((i) => cacheAt(`fresh-${name.length}-${i}`).page(pdfPath, 1))
    const bytes = await readFile(pdfPath)
    rasterizePage(bytes, 1, DPI)
    const inProcess = await repeat(() => rasterizePage(bytes, 1, DPI))
    const poppler = await repeat(() => exec('pdftoppm', ['-r', String(DPI), '-png', '-f', '1', '-l', '1', '-singlefile', pdfPath, path.join(dir, 'poppler')]))
    await pool.close()
    console.log(name)
    console.log(`  first image, cold (new worker + render + disk write) ${ms(cold)}`)
    console.log(`  warm render (worker up, not cached)                  ${ms(warmRender)}`)
    console.log(`  cache hit, memory                                    ${ms(memory)}`)
    console.log(`  cache hit, disk (after a restart)                    ${ms(disk)}`)
    console.log(`  mupdf in process (no worker, no cache)               ${ms(inProcess)}`)
    console.log(`  pdftoppm -r ${DPI} -png (a process per page)           ${ms(poppler)}  -> mupdf worker is ${(poppler / warmRender).toFixed(1)}x faster, a memory hit ${(poppler / memory).toFixed(0)}x\n`)
  }
} finally {
  await app.close()
  await rm(dir, { recursive: true, force: true })
}
