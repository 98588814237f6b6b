// Row 8: memory after 10,000 page-image requests over 50 pages, against memory after start.
// The configured bound is the memory LRU's maxMemoryBytes; it is set below the working set
// (50 pages of PNG) so the LRU evicts and misses go to the disk copies, as they would in use.
// Run with --expose-gc (bench/run.ts does) so figures are taken after a collection.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { LocalDisk } from '../../core/storage/disk.ts'
import { WorkerPool } from '../../core/workers/worker-pool.ts'
import { PageImageCache, RASTERIZE_WORKER } from '../../plugins/signature/rasterizer/page-image-cache.ts'
import { makePdf } from '../../test/fixtures/pdf/make-pdf.ts'
import { mib, pick, type Row } from '../lib/rows.ts'

const LIMIT = Number(process.env.BENCH_PAGE_CACHE_BYTES ?? 512 * 1024)

async function sample() {
  for (let i = 0; i < 3; i++) { globalThis.gc?.(); await new Promise((r) => setImmediate(r)) }
  const m = process.memoryUsage()
  return { rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers }
}

export async function run(): Promise<Row[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-memory-'))
  try {
    const pages = 50
    const requests = pick(10_000, 2_000)
    const pdfPath = path.join(dir, 'fifty.pdf')
    await writeFile(pdfPath, await makePdf({ pages }))
    const pool = new WorkerPool({ module: RASTERIZE_WORKER, size: 1 })
    const cache = new PageImageCache({ pool, disk: new LocalDisk('bench', path.join(dir, 'cache')), dpi: 144, maxMemoryBytes: LIMIT })
    // "After start": the cache and its worker are up (one geometry call), no page image yet.
    await cache.pages(pdfPath)
    const start = await sample()

    let seed = 7
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31)
    const samples: Array<{ after: number } & Awaited<ReturnType<typeof sample>>> = []
    let issued = 0
    const concurrency = 8
    for (const checkpoint of [requests / 2, requests]) {
      const target = checkpoint
      await Promise.all(Array.from({ length: concurrency }, async () => {
        while (issued < target) { issued++; await cache.page(pdfPath, 1 + Math.floor(rand() * pages)) }
      }))
      samples.push({ after: issued, ...(await sample()) })
    }
    const stats = cache.stats
    await pool.close()

    const end = samples.at(-1)!
    const half = samples[0]!
    const growth = { rss: end.rss - start.rss, heapUsed: end.heapUsed - start.heapUsed, buffers: end.arrayBuffers - start.arrayBuffers }
    const plateau = end.rss - half.rss
    // Bounded: the LRU holds at most LIMIT bytes of PNG, buffer memory grew by no more than that
    // (+10 %), and RSS stopped growing between the 5,000th and the 10,000th request.
    const met = stats.memoryBytes <= LIMIT && growth.buffers <= LIMIT * 1.1 && plateau <= Math.max(LIMIT, 8 * 1024 * 1024)
    return [{
      id: '8', what: `Memory after ${requests.toLocaleString('en-US')} page-image requests over ${pages} pages (LRU limit ${mib(LIMIT)}; ${stats.render} renders, ${stats.disk} disk, ${stats.memory} memory hits)`,
      ours: `RSS ${mib(end.rss)} (+${mib(growth.rss)}), heap ${mib(end.heapUsed)} (+${mib(growth.heapUsed)}), buffers +${mib(growth.buffers)}; LRU ${mib(stats.memoryBytes)}`,
      baseline: `after start: RSS ${mib(start.rss)}, heap ${mib(start.heapUsed)}`,
      ratio: `RSS +${mib(plateau)} in 2nd half`, bar: `LRU <= limit, buffers <= limit, RSS flat`, met,
      data: { limit: LIMIT, start, samples, growth, rssGrowthSecondHalf: plateau, cache: stats },
    }]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
