// Parsing, drawing and signing a 100-page document holds a thread for tens of ms; in a worker
// that time is not taken from the event loop serving every other request.
import { availableParallelism } from 'node:os'
import { WorkerPool } from '../../../core/workers/worker-pool.ts'
import { ERR_PDF_TOO_COMPLEX, ERR_PDF_WORKERS_BUSY } from './errors.ts'
import { DEFAULT_PDF_LIMITS, type PdfLimits } from './pdf-limits.ts'
import type { TimestampSource } from '../timestamps/timestamp-source.ts'

/**
 * The tasks a PDF worker runs, by name: empty here, filled in by declaration merging where the
 * worker's table is assembled (pdf-worker-tasks.ts at the plugin's entry), because the tasks come
 * from layers above this one (verification, LTV, the library, sessions).
 */
export interface PdfWorkerTasks {}
export type PdfTaskName = keyof PdfWorkerTasks

export interface PdfWorkerPoolOptions {
  /** Worker threads; defaults to the cores left after the main thread, at most 4. */
  size?: number
  /** Tasks allowed to wait for a free worker; more are refused with queueFullError (503). */
  maxQueue?: number
  /** The refusal past maxQueue; default ERR_PDF_WORKERS_BUSY. */
  queueFullError?: () => Error
  /** The workers' nice value (default 10; see WorkerPoolOptions.nice). */
  nice?: number
  /** Decoding, time and heap bounds per document (pdf-limits.ts has the defaults). */
  limits?: Partial<PdfLimits>
  /** An idle worker is stopped after this long (see WorkerPoolOptions); 0 or absent: never. */
  idleTimeoutMs?: number
  /** Where every signature's RFC 3161 timestamp comes from (B-T); null or absent: none (B-B). */
  timestamps?: TimestampSource | null
  /** Told when each task ends (metrics): see WorkerPoolOptions.onTaskSettled. */
  onTaskSettled?: (task: string, seconds: number, ok: boolean) => void
}

export interface PdfWorkerPool {
  run<K extends PdfTaskName>(task: K, ...args: Parameters<PdfWorkerTasks[K]>): Promise<Awaited<ReturnType<PdfWorkerTasks[K]>>>
  /** Threads started and busy: workers start on first use, so an app that has signed nothing has none. */
  readonly stats: { workers: number; busy: number; queued: number }
  close(): Promise<void>
}

/** The worker-pool settings that enforce PdfLimits: shared by the PDF pool and the rasterizer's. */
export function pdfLimitOptions(limits: Partial<PdfLimits> = {}) {
  const resolved = { ...DEFAULT_PDF_LIMITS, ...limits }
  return {
    taskTimeoutMs: resolved.taskTimeoutMs,
    resourceLimits: { maxOldGenerationSizeMb: resolved.workerHeapMb },
    workerOptions: { limits: resolved },
    limitError: (kind: 'time' | 'memory') => ERR_PDF_TOO_COMPLEX(kind === 'time'
      ? `The PDF took longer than ${resolved.taskTimeoutMs / 1000} s to process`
      : `The PDF needed more than ${resolved.workerHeapMb} MiB of memory to process`),
  }
}

/**
 * The worker tasks, typed, over the shared worker pool. `module`: the worker entry that serves
 * them (the plugin's is pdf-worker.ts at its root; createPdfWorkerPool there passes it).
 */
export function openPdfWorkerPool(module: URL, options: PdfWorkerPoolOptions = {}): PdfWorkerPool {
  const limitOptions = pdfLimitOptions(options.limits)
  const pool = new WorkerPool({
    module,
    size: Math.max(1, options.size ?? Math.min(4, availableParallelism() - 1)),
    maxQueue: options.maxQueue ?? 64,
    queueFullError: options.queueFullError ?? (() => ERR_PDF_WORKERS_BUSY()),
    ...(options.nice !== undefined ? { nice: options.nice } : {}),
    idleTimeoutMs: options.idleTimeoutMs ?? 0,
    ...(options.onTaskSettled ? { onTaskSettled: options.onTaskSettled } : {}),
    ...limitOptions,
    // The signing and its timestamp request run in the worker, so the source travels there.
    workerOptions: { ...limitOptions.workerOptions, timestamps: options.timestamps ?? null },
  })
  return {
    run: (task, ...args) => pool.run(task, args) as never,
    get stats() { return pool.stats },
    close: () => pool.close(),
  }
}
