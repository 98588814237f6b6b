import { execFileSync } from 'node:child_process'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import * as mupdf from 'mupdf'
import { concatTransformationMatrix, drawObject, PDFDocument, popGraphicsState, pushGraphicsState } from 'pdf-lib'
import t from 'tap'
import { cpuMillisecondsOf } from '../../../helpers/cpu-time.ts'
import { embedStampImage } from '../../../../plugins/signature/pdf/embed-stamp-image.ts'
import { makeFilteredPng, PNG_CHANNELS } from '../../../fixtures/pdf/stamp-image.ts'

// Stamp PNGs go into PDFs still filtered, their colour and alpha bytes split row by row
// (png-image-streams.ts). Poppler's pdfimages takes the images back out of the PDF and mupdf
// decodes what it wrote: every sample must come back as it was drawn, for each colour type and
// with every PNG filter in use (a wrong split garbles the Sub, Average and Paeth rows).

const WIDTH = 37
const HEIGHT = 23

/** Samples that make every filter predict something different (a gradient plus noise). */
function pixelsFor(channels: number): Buffer {
  const pixels = Buffer.alloc(WIDTH * HEIGHT * channels)
  let seed = 7
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    pixels[i] = (i * 3 + (seed >> 16)) & 0xff
  }
  return pixels
}

async function extractImages(pdf: Uint8Array): Promise<{ image: Buffer; smask?: Buffer }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'png-stamp-'))
  try {
    await writeFile(path.join(dir, 'in.pdf'), pdf)
    const list = execFileSync('pdfimages', ['-list', path.join(dir, 'in.pdf')], { encoding: 'utf8' })
    execFileSync('pdfimages', ['-png', path.join(dir, 'in.pdf'), path.join(dir, 'out')])
    const files = (await readdir(dir)).filter((f) => f.startsWith('out')).sort()
    const types = list.split('\n').slice(2).filter(Boolean).map((line) => line.trim().split(/\s+/)[2])
    const decode = async (file: string) => Buffer.from(new mupdf.Image(await readFile(path.join(dir, file))).toPixmap().getPixels())
    const image = await decode(files[types.indexOf('image')]!)
    const smaskAt = types.indexOf('smask')
    return { image, smask: smaskAt >= 0 ? await decode(files[smaskAt]!) : undefined }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

async function pdfWithStamp(png: Buffer): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([200, 200])
  const image = await embedStampImage(doc, png)
  t.same({ width: image.width, height: image.height }, { width: WIDTH, height: HEIGHT })
  const name = page.node.newXObject('Stamp', image.ref)
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(WIDTH, 0, 0, HEIGHT, 10, 10), drawObject(name), popGraphicsState())
  return doc.save()
}

for (const colorType of [0, 2, 4, 6] as const) {
  t.test(`colour type ${colorType}: pdfimages gives back every colour and alpha sample, twice (prepared once, then from the cache)`, async (t) => {
    const channels = PNG_CHANNELS[colorType]
    const pixels = pixelsFor(channels)
    const colors = channels >= 3 ? 3 : 1
    const hasAlpha = channels === 2 || channels === 4
    const color = Buffer.alloc(WIDTH * HEIGHT * colors)
    const alpha = Buffer.alloc(WIDTH * HEIGHT)
    for (let p = 0; p < WIDTH * HEIGHT; p++) {
      for (let k = 0; k < colors; k++) color[p * colors + k] = pixels[p * channels + k]!
      if (hasAlpha) alpha[p] = pixels[p * channels + colors]!
    }
    const png = makeFilteredPng(WIDTH, HEIGHT, colorType, pixels)
    for (const round of ['prepared', 'cached']) {
      const out = await extractImages(await pdfWithStamp(png))
      t.ok(out.image.equals(color), `${round}: colour samples identical`)
      if (hasAlpha) t.ok(out.smask?.equals(alpha), `${round}: alpha samples identical`)
      else t.equal(out.smask, undefined, `${round}: no soft mask for an opaque image`)
    }
  })
}

t.test('image data that does not match the header is refused with a stable code, before anything is drawn', async (t) => {
  const pixels = pixelsFor(4)
  const doc = await PDFDocument.create()
  const objects = doc.context.enumerateIndirectObjects().length
  await t.rejects(embedStampImage(doc, makeFilteredPng(WIDTH, HEIGHT, 6, pixels, { filterOf: () => 9 })), { code: 'ERR_IMAGE_INVALID', statusCode: 422, message: /filter/ })
  await t.rejects(embedStampImage(doc, makeFilteredPng(WIDTH, HEIGHT, 6, pixels, { announcedHeight: HEIGHT + 1 })), { code: 'ERR_IMAGE_INVALID', message: /announces/ })
  await t.rejects(embedStampImage(doc, makeFilteredPng(WIDTH, HEIGHT, 6, pixels, { announcedHeight: HEIGHT - 1 })), { code: 'ERR_IMAGE_INVALID' })
  const cpu = await cpuMillisecondsOf(() => t.rejects(embedStampImage(doc, makeFilteredPng(WIDTH, HEIGHT, 6, pixels, { announcedHeight: 5_000_000 })), { code: 'ERR_IMAGE_TOO_LARGE', statusCode: 422 }))
  // Inflating 5,000,000 rows would take seconds of CPU; refusing on the header takes well under 500 ms.
  t.ok(cpu < 500, `a header announcing billions of samples is refused before inflating (${cpu.toFixed(0)} ms of CPU)`)
  t.equal(doc.context.enumerateIndirectObjects().length, objects, 'no object was added to the document')
})
