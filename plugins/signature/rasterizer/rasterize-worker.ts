// Worker thread: mupdf (WASM) rasterizing blocks for tens to hundreds of milliseconds per page.
import { readFile } from 'node:fs/promises'
import { serveTasks, Transfer } from '../../../core/workers/task-server.ts'
import { openPdf, pageGeometry } from './page-geometry.ts'
import { rasterizePage } from './rasterize-page.ts'

serveTasks({
  geometry: async ({ path }: { path: string }) => {
    const doc = openPdf(await readFile(path))
    try {
      return pageGeometry(doc)
    } finally {
      doc.destroy()
    }
  },
  render: async ({ path, page, dpi }: { path: string; page: number; dpi: number }) => {
    const png = rasterizePage(await readFile(path), page, dpi)
    // Copy into a buffer of its own: the WASM heap must not be transferred.
    const copy = new Uint8Array(png)
    return new Transfer(copy, [copy.buffer])
  },
})
