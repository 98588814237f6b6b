// Worker thread: mupdf (WASM) rasterizing blocks for tens to hundreds of milliseconds per page.
// First: it must run before mupdf is loaded.
import { mupdfWasmSource } from './use-shared-mupdf-wasm.ts'
import { readFile } from 'node:fs/promises'
import { workerData } from 'node:worker_threads'
import { serveTasks, Transfer } from '../../../core/workers/task-server.ts'
import { asPdfError } from '../pdf/as-pdf-error.ts'
import { configurePdfLimits } from '../pdf/pdf-limits.ts'
import { openPdf, pageGeometry } from './page-geometry.ts'
import { rasterizePage } from './rasterize-page.ts'

configurePdfLimits(workerData?.options?.limits)

serveTasks({
  /** Whether this worker instantiated the module the pool compiled, or compiled its own. */
  wasmSource: () => mupdfWasmSource,
  geometry: async ({ path }: { path: string }) => {
    const bytes = await readFile(path)
    return asPdfError(() => {
      const doc = openPdf(bytes)
      try {
        return pageGeometry(doc)
      } finally {
        doc.destroy()
      }
    })
  },
  render: async ({ path, page, dpi }: { path: string; page: number; dpi: number }) => {
    const bytes = await readFile(path)
    return asPdfError(() => {
      const png = rasterizePage(bytes, page, dpi)
      // Copy into a buffer of its own: the WASM heap must not be transferred.
      const copy = new Uint8Array(png)
      return new Transfer(copy, [copy.buffer])
    })
  },
})
