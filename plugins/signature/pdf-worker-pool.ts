// The plugin's PDF worker pool: the pdf layer's pool (pdf/pdf-worker-pool.ts) over this folder's
// worker entry, whose task table holds tasks of every layer.
import { openPdfWorkerPool, type PdfWorkerPool, type PdfWorkerPoolOptions } from './pdf/pdf-worker-pool.ts'

// The table that types the pool's tasks (declaration merging): named here so that every program
// that creates a pool, the package's declarations too, includes it.
export type { PdfWorkerTaskTable } from './pdf-worker-tasks.ts'
export type { PdfWorkerPool, PdfWorkerPoolOptions } from './pdf/pdf-worker-pool.ts'

export const PDF_WORKER = new URL('./pdf-worker.ts', import.meta.url)

/** The PDF engine's functions and the other layers' worker tasks, typed, over the shared worker pool. */
export function createPdfWorkerPool(options: PdfWorkerPoolOptions = {}): PdfWorkerPool {
  return openPdfWorkerPool(PDF_WORKER, options)
}
