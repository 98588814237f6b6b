// Chooses the PNG encoding of page images by measurement (issue 40 item 7): mupdf's asPNG
// (WebAssembly zlib) against encodePng (node:zlib, unfiltered rows, Z_RLE), on the bench's pages at
// 144 DPI: milliseconds to encode (median) and bytes. Run: node --import tsx bench/tools/png-encoding.ts
import { performance } from 'node:perf_hooks'
import * as mupdf from 'mupdf'
import { encodePng } from '../../plugins/signature/rasterizer/encode-png.ts'
import { makePdf } from '../../test/fixtures/pdf/make-pdf.ts'
import { median } from '../lib/rows.ts'

const doc = mupdf.Document.openDocument(await makePdf({ pages: 6 }), 'application/pdf')
const scale = 144 / 72
const results: Record<string, { ms: number[]; bytes: number[] }> = {}
const add = (name: string, ms: number, bytes: number) => { (results[name] ??= { ms: [], bytes: [] }).ms.push(ms); results[name]!.bytes.push(bytes) }
for (let round = 0; round < 3; round++) {
  for (let page = 0; page < doc.countPages(); page++) {
    const pixmap = doc.loadPage(page).toPixmap(mupdf.Matrix.scale(scale, scale), mupdf.ColorSpace.DeviceRGB, false, true)
    let t0 = performance.now()
    const png = pixmap.asPNG()
    add('mupdf asPNG', performance.now() - t0, png.length)
    t0 = performance.now()
    const ours = encodePng(pixmap.getPixels(), pixmap.getWidth(), pixmap.getHeight(), pixmap.getStride())
    add('encodePng (node:zlib, RLE)', performance.now() - t0, ours.length)
    pixmap.destroy()
  }
}
for (const [name, r] of Object.entries(results)) console.log(`${name.padEnd(28)} ${median(r.ms).toFixed(1).padStart(6)} ms  ${(median(r.bytes) / 1024).toFixed(0).padStart(5)} KiB`)
