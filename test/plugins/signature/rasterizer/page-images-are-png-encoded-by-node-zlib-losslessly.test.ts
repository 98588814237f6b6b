// Issue 40 item 7: page images are encoded by node:zlib (encodePng) instead of mupdf's WebAssembly
// zlib, ~4x faster. The PNG must be one others read as the same picture: decoded by mupdf, and
// chunk by chunk by Python's standard library, it holds exactly the pixels mupdf drew, and every
// chunk carries a valid CRC.
import { execFileSync } from 'node:child_process'
import { crc32 } from 'node:zlib'
import * as mupdf from 'mupdf'
import t from 'tap'
import { encodePng } from '../../../../plugins/signature/rasterizer/encode-png.ts'
import { rasterizePage } from '../../../../plugins/signature/rasterizer/rasterize-page.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'

t.test('a rendered page comes back pixel for pixel, through mupdf and through Python', async (t) => {
  const pdf = await makePdf({ pages: 2 })
  const png = rasterizePage(pdf, 2, 144)
  const direct = mupdf.Document.openDocument(pdf, 'application/pdf').loadPage(1).toPixmap(mupdf.Matrix.scale(2, 2), mupdf.ColorSpace.DeviceRGB, false, true)
  const decoded = new mupdf.Image(png).toPixmap()
  t.equal(decoded.getWidth(), direct.getWidth())
  t.equal(decoded.getHeight(), direct.getHeight())
  t.ok(Buffer.from(decoded.getPixels()).equals(Buffer.from(direct.getPixels())), 'mupdf reads back the very pixels it drew')

  // Python's standard library, nothing of ours: walk the chunks, check each CRC, inflate IDAT, undo filter 0.
  const python = `
import sys, zlib, struct, hashlib
data = sys.stdin.buffer.read()
assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
pos, idat, w, h = 8, b'', 0, 0
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos+8]); body = data[pos+8:pos+8+n]
    assert struct.unpack('>I', data[pos+8+n:pos+12+n])[0] == zlib.crc32(kind + body), kind
    if kind == b'IHDR': w, h = struct.unpack('>II', body[:8])
    if kind == b'IDAT': idat += body
    pos += 12 + n
raw = zlib.decompress(idat); row = w * 3 + 1
assert all(raw[y * row] == 0 for y in range(h))
print(hashlib.sha256(b''.join(raw[y * row + 1:(y + 1) * row] for y in range(h))).hexdigest())`
  const digest = execFileSync('python3', ['-c', python], { input: png, encoding: 'utf8' }).trim()
  const rowBytes = direct.getWidth() * 3
  const pixels = direct.getPixels()
  const tight = Buffer.concat(Array.from({ length: direct.getHeight() }, (_, y) => Buffer.from(pixels.subarray(y * direct.getStride(), y * direct.getStride() + rowBytes))))
  const { createHash } = await import('node:crypto')
  t.equal(digest, createHash('sha256').update(tight).digest('hex'), 'Python inflates the same pixels, every CRC checks')
})

t.test('a padded stride is cut to the row, and the chunks are well formed', async (t) => {
  // 2 x 2 pixels with 2 bytes of padding per row.
  const pixels = Uint8Array.from([255, 0, 0, 0, 255, 0, 9, 9, 0, 0, 255, 255, 255, 255, 9, 9])
  const png = encodePng(pixels, 2, 2, 8)
  const image = new mupdf.Image(png).toPixmap()
  t.same([...image.getPixels()].slice(0, 12), [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])
  const ihdr = png.subarray(8, 8 + 25)
  t.equal(ihdr.readUInt32BE(21), crc32(ihdr.subarray(4, 21)) >>> 0, 'IHDR CRC')
})
