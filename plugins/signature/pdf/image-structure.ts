// pdf-lib's PNG decoder loops forever on some truncated files (measured: a PNG cut to 60 bytes
// blocked the event loop indefinitely). So every image is walked structurally first, with every
// length bounds-checked, before any decoder sees it.
import { crc32 } from 'node:zlib'
import { ERR_IMAGE_INVALID } from './errors.ts'

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

export interface ImageStructure {
  kind: 'png' | 'jpeg'
  width: number
  height: number
}

/** PNG: signature, IHDR first, every chunk inside the file with a correct CRC, IDAT present, IEND last. */
function pngStructure(bytes: Buffer): ImageStructure {
  let offset = 8
  let width = 0
  let height = 0
  let sawData = false
  let first = true
  while (offset + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(offset)
    const type = bytes.toString('latin1', offset + 4, offset + 8)
    const end = offset + 12 + length
    if (length > 0x7fffffff || end > bytes.length) throw ERR_IMAGE_INVALID(`The PNG is truncated (chunk ${type})`)
    const stored = bytes.readUInt32BE(offset + 8 + length)
    if ((crc32(bytes.subarray(offset + 4, offset + 8 + length)) >>> 0) !== stored) throw ERR_IMAGE_INVALID(`The PNG is damaged (bad checksum in ${type})`)
    if (first) {
      if (type !== 'IHDR' || length !== 13) throw ERR_IMAGE_INVALID('The PNG does not start with a header chunk')
      width = bytes.readUInt32BE(offset + 8)
      height = bytes.readUInt32BE(offset + 12)
      first = false
    }
    if (type === 'IDAT') sawData = true
    if (type === 'IEND') {
      if (!sawData) throw ERR_IMAGE_INVALID('The PNG has no image data')
      return { kind: 'png', width, height }
    }
    offset = end
  }
  throw ERR_IMAGE_INVALID('The PNG is truncated (no end chunk)')
}

/** JPEG: SOI, then markers with bounded lengths up to a frame header and the scan, and EOI at the end. */
function jpegStructure(bytes: Buffer): ImageStructure {
  if (bytes.length < 4 || bytes[bytes.length - 2] !== 0xff || bytes[bytes.length - 1] !== 0xd9) throw ERR_IMAGE_INVALID('The JPEG is truncated (no end marker)')
  let offset = 2
  let size: { width: number; height: number } | undefined
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) throw ERR_IMAGE_INVALID('The JPEG is damaged (marker expected)')
    const marker = bytes[offset + 1]!
    if (marker === 0xff) { offset += 1; continue }
    const length = bytes.readUInt16BE(offset + 2)
    if (length < 2 || offset + 2 + length > bytes.length) throw ERR_IMAGE_INVALID('The JPEG is truncated')
    // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      if (length < 7) throw ERR_IMAGE_INVALID('The JPEG frame header is damaged')
      size = { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) }
    }
    if (marker === 0xda) {
      if (!size) throw ERR_IMAGE_INVALID('The JPEG has no frame header before its data')
      return { kind: 'jpeg', ...size }
    }
    offset += 2 + length
  }
  throw ERR_IMAGE_INVALID('The JPEG is truncated (no image data)')
}

export function checkImageStructure(bytes: Uint8Array): ImageStructure {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const structure = buffer.subarray(0, 8).equals(PNG_SIGNATURE)
    ? pngStructure(buffer)
    : buffer[0] === 0xff && buffer[1] === 0xd8 && buffer[2] === 0xff ? jpegStructure(buffer) : undefined
  if (!structure) throw ERR_IMAGE_INVALID('The image is neither PNG nor JPEG')
  if (structure.width < 1 || structure.height < 1) throw ERR_IMAGE_INVALID('The image has no pixels')
  return structure
}
