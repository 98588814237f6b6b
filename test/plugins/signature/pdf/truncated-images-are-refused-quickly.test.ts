import fc from 'fast-check'
import { PDFDocument } from 'pdf-lib'
import t from 'tap'
import { embedStampImage } from '../../../../plugins/signature/pdf/embed-stamp-image.ts'
import { checkImageStructure } from '../../../../plugins/signature/pdf/image-structure.ts'
import { makeStampJpeg, makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { cpuMillisecondsOf } from '../../../helpers/cpu-time.ts'

// Regression: a PNG cut to 60 bytes made pdf-lib's decoder loop forever on the event loop.
// The structural check must refuse every prefix of a valid image, and fast.

t.test('every truncation of a PNG and of a JPEG is refused with ERR_IMAGE_INVALID', async (t) => {
  for (const image of [makeStampPng(), await makeStampJpeg()]) {
    t.match(checkImageStructure(image), { width: Number, height: Number })
    const cpu = await cpuMillisecondsOf(() => {
      for (let cut = 0; cut < image.length; cut += Math.max(1, Math.floor(image.length / 300))) {
        t.throws(() => checkImageStructure(image.subarray(0, cut)), { code: 'ERR_IMAGE_INVALID' }, `cut at ${cut}`)
      }
    })
    t.ok(cpu < 2000, `all truncations judged within 2 s of CPU (${cpu.toFixed(0)} ms)`)
  }
})

t.test('the 60-byte PNG that hung the decoder is refused by embedStampImage', async (t) => {
  const doc = await PDFDocument.create()
  const cpu = await cpuMillisecondsOf(() => t.rejects(embedStampImage(doc, makeStampPng().subarray(0, 60)), { code: 'ERR_IMAGE_INVALID', statusCode: 422 }))
  t.ok(cpu < 1000, `refused within 1 s of CPU (${cpu.toFixed(0)} ms)`)
})

t.test('a corrupted byte inside a PNG chunk fails its checksum', async (t) => {
  const png = Buffer.from(makeStampPng())
  png[40] = png[40]! ^ 0xff
  t.throws(() => checkImageStructure(png), { code: 'ERR_IMAGE_INVALID', message: /checksum/ })
})

t.test('random bytes behind a PNG signature never hang and are refused', async (t) => {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), (tail) => {
    try {
      checkImageStructure(Buffer.concat([signature, tail]))
      return false
    } catch (error) {
      return (error as { code?: string }).code === 'ERR_IMAGE_INVALID'
    }
  }), { numRuns: 500 })
  t.pass('500 random tails refused')
})
