// Stamp images arrive from browsers (a drawn signature as PNG, a photo as JPEG); anything else,
// or a file that only pretends to be one, is refused before it reaches a PDF.
import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import type { PDFContext, PDFDocument, PDFRef } from 'pdf-lib'
import { ERR_IMAGE_INVALID } from './errors.ts'
import { checkImageStructure } from './image-structure.ts'
import { pngImageStreams, type ImageStreams } from './png-image-streams.ts'

/** An image XObject in a document, and its size in pixels (what drawing it needs). */
export interface StampImage {
  ref: PDFRef
  width: number
  height: number
}

// A person signs with the same few images (their saved signature), so the streams of a PNG are
// prepared once per thread and copied into each document: keyed by the bytes' SHA-256, bounded by
// the compressed bytes held.
const prepared = new LRUCache<string, ImageStreams>({ maxSize: 32 * 1024 * 1024, sizeCalculation: (s) => s.color.length + (s.alpha?.length ?? 0) + 1 })

export async function embedStampImage(doc: PDFDocument, image: Uint8Array): Promise<StampImage> {
  const bytes = Buffer.from(image.buffer, image.byteOffset, image.byteLength)
  // Before any decoder: pdf-lib's PNG reader never returns on some truncated files.
  const { kind } = checkImageStructure(bytes)
  if (kind === 'png') {
    const key = createHash('sha256').update(bytes).digest('base64')
    let streams = prepared.get(key)
    if (!streams) {
      streams = pngImageStreams(bytes)
      if (streams) prepared.set(key, streams)
    }
    if (streams) return addImageStreams(doc.context, streams)
  }
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

// pdf-lib, imported with the first stamp and kept: the library module that imports this file is
// loaded at boot, and the server's main thread must not load pdf-lib
// (a-booted-app-has-not-loaded-libraries-it-has-not-used). Kept, because under tsx's loader every
// import() asks its hooks thread again, a message round trip: 13 % of a one-page signature.
let pdfLib: Promise<typeof import('pdf-lib')> | undefined

async function addImageStreams(context: PDFContext, streams: ImageStreams): Promise<StampImage> {
  const { PDFRawStream } = await (pdfLib ??= import('pdf-lib'))
  const { width, height } = streams
  const image = (colorSpace: string, colors: number, contents: Buffer, extra: Record<string, PDFRef> = {}) =>
    context.register(PDFRawStream.of(context.obj({
      Type: 'XObject', Subtype: 'Image', Width: width, Height: height, BitsPerComponent: 8, ColorSpace: colorSpace,
      Filter: 'FlateDecode', DecodeParms: { Predictor: 15, Colors: colors, BitsPerComponent: 8, Columns: width }, ...extra,
    }), contents))
  const smask: Record<string, PDFRef> = streams.alpha ? { SMask: image('DeviceGray', 1, streams.alpha) } : {}
  return { ref: image(streams.colorSpace, streams.colors, streams.color, smask), width, height }
}
