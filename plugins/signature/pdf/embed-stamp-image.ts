// Stamp images arrive from browsers (a drawn signature as PNG, a photo as JPEG); anything else,
// or a file that only pretends to be one, is refused before it reaches a PDF.
import type { PDFDocument, PDFImage } from 'pdf-lib'
import { ERR_IMAGE_INVALID } from './errors.ts'
import { checkImageStructure } from './image-structure.ts'


export async function embedStampImage(doc: PDFDocument, image: Uint8Array): Promise<PDFImage> {
  const bytes = Buffer.from(image.buffer, image.byteOffset, image.byteLength)
  // Before any decoder: pdf-lib's PNG reader never returns on some truncated files.
  const { kind } = checkImageStructure(bytes)
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
