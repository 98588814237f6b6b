// Stamp images arrive from browsers (a drawn signature as PNG, a photo as JPEG); anything else,
// or a file that only pretends to be one, is refused before it reaches a PDF.
import type { PDFDocument, PDFImage } from 'pdf-lib'
import { ERR_IMAGE_INVALID } from './errors.ts'

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff])

export async function embedStampImage(doc: PDFDocument, image: Uint8Array): Promise<PDFImage> {
  const bytes = Buffer.from(image.buffer, image.byteOffset, image.byteLength)
  const kind = bytes.subarray(0, 8).equals(PNG_MAGIC) ? 'png' : bytes.subarray(0, 3).equals(JPEG_MAGIC) ? 'jpeg' : undefined
  if (!kind) throw ERR_IMAGE_INVALID('The stamp image is neither PNG nor JPEG')
  try {
    // pdf-lib's JPEG reader wraps `bytes.buffer` from offset 0, so a Buffer that is a view into a
    // larger pool ("SOI not found") would be misread: hand it a copy that owns its memory.
    const own = new Uint8Array(bytes)
    const embedded = kind === 'png' ? await doc.embedPng(own) : await doc.embedJpg(own)
    // pdf-lib embeds lazily at save time; forcing it now surfaces a corrupt image here, as a 422,
    // and registers the objects so an incremental update can find them.
    await embedded.embed()
    if (!(embedded.width > 0 && embedded.height > 0)) throw new Error('The image has no pixels')
    return embedded
  } catch (cause) {
    throw ERR_IMAGE_INVALID(`The stamp image cannot be decoded as ${kind.toUpperCase()}`, { cause })
  }
}
