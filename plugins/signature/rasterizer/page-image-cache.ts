import { createHash } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { LRUCache } from 'lru-cache'
import type { Disk } from '../../../core/storage/disk.ts'
import { spooledContentVersion } from '../../../core/storage/object-spool.ts'
import type { WorkerPool } from '../../../core/workers/worker-pool.ts'
import type { PageSize } from './page-geometry.ts'
import { mupdfWasmModule } from './mupdf-wasm-module.ts'

export interface PageImage {
  png: Buffer
  /** Strong validator: the cache key, which changes with the file, its mtime, the DPI and the page. */
  etag: string
  source: 'memory' | 'disk' | 'render'
}

export interface PageImageCacheOptions {
  pool: WorkerPool
  /** Where rendered pages are kept across restarts. */
  disk: Disk
  dpi: number
  /** Bound of the in-memory LRU, in bytes of PNG. */
  maxMemoryBytes: number
}

/**
 * Page images keyed by (pdf path, modification time, dpi, page): a changed sample or a changed
 * DPI is a different key, so nothing stale is ever served. A memory LRU (bounded in bytes) sits in
 * front of files on the storage disk, so a restart does not re-render; concurrent requests for the
 * same missing page share one render. The key is a hash, so no path from outside reaches the disk.
 */
export class PageImageCache {
  readonly #options: PageImageCacheOptions
  readonly #memory: LRUCache<string, Buffer>
  readonly #inflight = new Map<string, Promise<PageImage>>()
  readonly #geometry = new LRUCache<string, PageSize[]>({ max: 500 })
  readonly #geometryInflight = new Map<string, Promise<PageSize[]>>()
  readonly #stats = { memory: 0, disk: 0, render: 0 }

  constructor(options: PageImageCacheOptions) {
    this.#options = options
    this.#memory = new LRUCache<string, Buffer>({ maxSize: options.maxMemoryBytes, sizeCalculation: (png) => Math.max(1, png.length) })
  }

  get dpi() {
    return this.#options.dpi
  }

  get stats() {
    return { ...this.#stats, memoryBytes: this.#memory.calculatedSize, memoryEntries: this.#memory.size, workers: this.#options.pool.stats.workers }
  }

  async #version(pdfPath: string): Promise<string> {
    // A spool copy of a database object (STORAGE_DRIVER=database) is named after its bytes: every
    // instance finds the page images another one rendered, whatever its path and mtime.
    const spooled = spooledContentVersion(pdfPath)
    if (spooled) return spooled
    const info = await stat(pdfPath)
    return `${pdfPath}\0${info.mtimeMs}\0${info.size}`
  }

  /** Starts a rasterizer worker if none is up, for page images asked for soon (WorkerPool.warm). */
  warm(): void {
    this.#options.pool.warm()
  }

  /** Page sizes in points, cached by (path, mtime). */
  async pages(pdfPath: string): Promise<PageSize[]> {
    const version = await this.#version(pdfPath)
    const sizes = this.#geometry.get(version)
    if (sizes) return sizes
    // Callers asking at once (a page's sizes and its images, several viewers of one document)
    // wait on one geometry task.
    let pending = this.#geometryInflight.get(version)
    if (!pending) {
      pending = this.#options.pool.run<PageSize[]>('geometry', { path: pdfPath })
        .then((found) => { this.#geometry.set(version, found); return found })
        .finally(() => this.#geometryInflight.delete(version))
      this.#geometryInflight.set(version, pending)
    }
    return pending
  }

  #key(version: string, page: number): string {
    return createHash('sha256').update(`${version}\0${this.#options.dpi}\0${page}`).digest('hex').slice(0, 40)
  }

  /** The ETag page() would give, from a stat of the file alone: a revalidation costs no image. */
  async etag(pdfPath: string, page: number): Promise<string> {
    return `"${this.#key(await this.#version(pdfPath), page)}"`
  }

  async page(pdfPath: string, page: number): Promise<PageImage> {
    const key = this.#key(await this.#version(pdfPath), page)
    const etag = `"${key}"`
    const hit = this.#memory.get(key)
    if (hit) {
      this.#stats.memory++
      return { png: hit, etag, source: 'memory' }
    }
    let pending = this.#inflight.get(key)
    if (!pending) {
      pending = this.#load(pdfPath, page, key, etag).finally(() => this.#inflight.delete(key))
      this.#inflight.set(key, pending)
    }
    return pending
  }

  async #load(pdfPath: string, page: number, key: string, etag: string): Promise<PageImage> {
    const file = `page-images/${key.slice(0, 2)}/${key}.png`
    const { disk } = this.#options
    if (await disk.exists(file)) {
      const png = await disk.get(file)
      this.#memory.set(key, png)
      this.#stats.disk++
      return { png, etag, source: 'disk' }
    }
    const rendered = await this.#options.pool.run<Uint8Array>('render', { path: pdfPath, page, dpi: this.#options.dpi })
    const png = Buffer.from(rendered.buffer, rendered.byteOffset, rendered.byteLength)
    // Atomic write: two instances rendering the same page at once both write a whole file.
    await disk.put(file, png)
    this.#memory.set(key, png)
    this.#stats.render++
    return { png, etag, source: 'render' }
  }
}

export const RASTERIZE_WORKER = new URL('./rasterize-worker.ts', import.meta.url)

/** What the page-image pool hands every worker it starts: mupdf compiled once (mupdf-wasm-module.ts). */
export async function rasterizerShared() {
  return { mupdfWasm: await mupdfWasmModule() }
}
