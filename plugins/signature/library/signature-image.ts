import { ERR_IMAGE_INVALID, ERR_IMAGE_TOO_LARGE } from '../pdf/errors.ts'
import { embedStampImage } from '../pdf/embed-stamp-image.ts'
import { checkImageStructure } from '../pdf/image-structure.ts'
import type { PdfWorkerPool } from '../pdf/pdf-worker-pool.ts'

export const MAX_IMAGE_BYTES = 512 * 1024
const MAX_SIDE = 4000
/**
 * Pixels a signature image may have (README: "Limits"). Compression hides the cost: 124 KB of
 * 16-bit PNG was 4000 x 4000 pixels, 128 MB decoded and seconds of CPU. A drawn signature from a
 * 3x screen is about 3600 x 1200 (4.3 M). Checked from the header, before any decoder runs.
 */
export const MAX_IMAGE_PIXELS = 6_000_000
const DATA_URL = /^data:(image\/png|image\/jpeg);base64,([A-Za-z0-9+/]+={0,2})$/

export interface SignatureImage {
  mime: 'image/png' | 'image/jpeg'
  bytes: Buffer
  width: number
  height: number
}

/** Decodes an image in full, as it will be embedded in PDFs; throws ERR_IMAGE_INVALID when it cannot be. */
export interface ImageDecoder {
  decode(bytes: Uint8Array): Promise<{ width: number; height: number }>
}

/** Decoding in this thread: for tests and scripts (a large image blocks the event loop for seconds). */
export const inProcessImageDecoder: ImageDecoder = {
  decode: (bytes) => decodeStampImage(bytes),
}

/** Decoding in the PDF worker pool, off the event loop: what the server uses. */
export function workerImageDecoder(pool: PdfWorkerPool): ImageDecoder {
  return { decode: (bytes) => pool.run('decodeStampImage', bytes) }
}

/** The decode a stamp gets when it is signed into a PDF, run on its own: its pixel size. */
export async function decodeStampImage(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  // Imported here: the server decodes in the PDF worker, so its main thread need not load pdf-lib.
  const { PDFDocument } = await import('pdf-lib')
  const embedded = await embedStampImage(await PDFDocument.create(), bytes)
  return { width: embedded.width, height: embedded.height }
}

/**
 * A signature image from a browser, as a data URL. It must really be a PNG or JPEG (decoded in
 * full, the same way it will be embedded in PDFs), within the size limits, and its declared type
 * must match its bytes.
 */
export async function parseSignatureImage(dataUrl: string, decoder: ImageDecoder = inProcessImageDecoder): Promise<SignatureImage> {
  const match = DATA_URL.exec(dataUrl)
  if (!match) throw ERR_IMAGE_INVALID('The image must be a data URL: data:image/png;base64,... or data:image/jpeg;base64,...')
  const mime = match[1] as SignatureImage['mime']
  const bytes = Buffer.from(match[2]!, 'base64')
  if (bytes.length > MAX_IMAGE_BYTES) throw ERR_IMAGE_INVALID(`The image is larger than ${MAX_IMAGE_BYTES / 1024} KiB`)
  const structure = checkImageStructure(bytes)
  if (structure.width > MAX_SIDE || structure.height > MAX_SIDE) throw ERR_IMAGE_TOO_LARGE(`The image is larger than ${MAX_SIDE} x ${MAX_SIDE} pixels`)
  if (structure.width * structure.height > MAX_IMAGE_PIXELS) {
    throw ERR_IMAGE_TOO_LARGE(`The image has ${structure.width} x ${structure.height} pixels; at most ${MAX_IMAGE_PIXELS.toLocaleString('en')} are accepted`)
  }
  if ((mime === 'image/png') !== (structure.kind === 'png')) throw ERR_IMAGE_INVALID(`The image bytes are not ${mime === 'image/png' ? 'PNG' : 'JPEG'} as declared`)
  const decoded = await decoder.decode(bytes)
  if (decoded.width !== structure.width || decoded.height !== structure.height) throw ERR_IMAGE_INVALID('The image decodes to a size other than its header says')
  return { mime, bytes, width: decoded.width, height: decoded.height }
}
