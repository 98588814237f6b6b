// Bounds on the work one document from outside may cause. A 1 MB upload can inflate to a
// gigabyte or nest without end; these keep such a file from holding a worker or the memory.
export interface PdfLimits {
  /** Bytes all of a document's streams may decode to while it is read (object and cross-reference streams). */
  maxDecodedBytes: number
  /** Longest one PDF or page-image task may run; its worker is then replaced. */
  taskTimeoutMs: number
  /** V8 heap of each PDF and rasterizer worker, in MiB; a worker that runs out is replaced. */
  workerHeapMb: number
}

export const DEFAULT_PDF_LIMITS: PdfLimits = {
  maxDecodedBytes: 64 * 1024 * 1024,
  taskTimeoutMs: 15_000,
  workerHeapMb: 512,
}

let current: PdfLimits = DEFAULT_PDF_LIMITS

/** Set once per worker thread from the pool's settings (pdf-worker.ts); the main thread keeps the defaults. */
export function configurePdfLimits(limits: Partial<PdfLimits> | undefined): void {
  current = { ...DEFAULT_PDF_LIMITS, ...limits }
}

export function pdfLimits(): PdfLimits {
  return current
}
