import { PDFDocument } from 'pdf-lib'
import { ERR_IMAGE_INVALID } from '../pdf/errors.ts'
import { embedStampImage } from '../pdf/embed-stamp-image.ts'
import { checkImageStructure } from '../pdf/image-structure.ts'

export const MAX_IMAGE_BYTES = 512 * 1024
const MAX_SIDE = 4000
const DATA_URL = /^data:(image\/png|image\/jpeg);base64,([A-Za-z0-9+/]+={0,2})$/

export interface SignatureImage {
  mime: 'image/png' | 'image/jpeg'
  bytes: Buffer
  width: number
  height: number
}

/**
 * A signature image from a browser, as a data URL. It must really be a PNG or JPEG (decoded in
 * full, the same way it will be embedded in PDFs), within the size limits, and its declared type
 * must match its bytes.
 */
export async function parseSignatureImage(dataUrl: string): Promise<SignatureImage> {
  const match = DATA_URL.exec(dataUrl)
  if (!match) throw ERR_IMAGE_INVALID('The image must be a data URL: data:image/png;base64,... or data:image/jpeg;base64,...')
  const mime = match[1] as SignatureImage['mime']
  const bytes = Buffer.from(match[2]!, 'base64')
  if (bytes.length > MAX_IMAGE_BYTES) throw ERR_IMAGE_INVALID(`The image is larger than ${MAX_IMAGE_BYTES / 1024} KiB`)
  const structure = checkImageStructure(bytes)
  if (structure.width > MAX_SIDE || structure.height > MAX_SIDE) throw ERR_IMAGE_INVALID(`The image is larger than ${MAX_SIDE} x ${MAX_SIDE} pixels`)
  if ((mime === 'image/png') !== (structure.kind === 'png')) throw ERR_IMAGE_INVALID(`The image bytes are not ${mime === 'image/png' ? 'PNG' : 'JPEG'} as declared`)
  const embedded = await embedStampImage(await PDFDocument.create(), bytes)
  if (embedded.width > MAX_SIDE || embedded.height > MAX_SIDE) throw ERR_IMAGE_INVALID(`The image is larger than ${MAX_SIDE} x ${MAX_SIDE} pixels`)
  return { mime, bytes, width: embedded.width, height: embedded.height }
}
