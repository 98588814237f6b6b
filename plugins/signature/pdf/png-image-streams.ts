// A PNG as the streams of a PDF image, without decoding its pixels. pdf-lib's embedPng unfilters
// every row and deflates the colour and alpha planes again with pako, in JavaScript: 54 % of a
// one-page signature's time (bench row P3a). PDF's PNG predictors are PNG's filters (PDF 32000-1
// 7.4.4.4), so the filtered rows can stay as they are. Each filter refers to the same channel
// only (the byte bpp back, the byte above), so the colour bytes and the alpha bytes of a filtered
// row split into two filtered rows that still decode, each with its own channel count. What is
// left is one native inflate and, with an alpha channel, two native deflates.
import { deflateSync, inflateSync } from 'node:zlib'
import { ERR_IMAGE_INVALID, ERR_IMAGE_TOO_LARGE } from './errors.ts'

export interface ImageStreams {
  width: number
  height: number
  colorSpace: 'DeviceRGB' | 'DeviceGray'
  /** The colour samples, Flate-compressed, PNG-predicted (/Predictor 15) with `colors` channels. */
  color: Buffer
  colors: 1 | 3
  /** The alpha samples as one channel, in the same form; absent for an opaque image. */
  alpha?: Buffer
}

// The most filtered bytes one image may inflate to: MAX_IMAGE_PIXELS (6 million, the library's
// limit) at 4 bytes each plus a filter byte per row, with room to spare.
const MAX_FILTERED_BYTES = 64 * 1024 * 1024
// Colour type -> channels, for the types read here (0 grey, 2 RGB, 4 grey + alpha, 6 RGBA).
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 }

/**
 * The PDF image streams of an 8-bit, non-interlaced grey or RGB PNG, with or without alpha; undefined
 * for what this does not cover (palettes, other bit depths, interlacing, a tRNS colour key), which
 * the caller leaves to a full decoder. Throws ERR_IMAGE_INVALID when the data does not inflate to
 * exactly the rows the header announces.
 */
export function pngImageStreams(png: Buffer): ImageStreams | undefined {
  const { header, data } = readChunks(png)
  const { width, height, bitDepth, colorType, interlace } = header
  const channels = CHANNELS[colorType]
  if (!channels || bitDepth !== 8 || interlace !== 0 || header.transparencyKey) return undefined
  const rowBytes = width * channels + 1
  const expected = rowBytes * height
  if (expected > MAX_FILTERED_BYTES) throw ERR_IMAGE_TOO_LARGE(`The image has ${width} x ${height} pixels`)
  const filtered = inflateRows(data, expected)
  for (let offset = 0; offset < expected; offset += rowBytes) {
    if (filtered[offset]! > 4) throw ERR_IMAGE_INVALID(`The PNG has an unknown row filter (${filtered[offset]})`)
  }
  const colors = channels >= 3 ? 3 : 1
  const colorSpace = colors === 3 ? 'DeviceRGB' : 'DeviceGray'
  // Without alpha the image data is already the stream PDF wants: its compressed bytes, copied so
  // that what is kept (embed-stamp-image.ts caches it) holds no view into the caller's memory.
  if (channels === colors) return { width, height, colorSpace, colors, color: Buffer.from(data) }
  const { color, alpha } = splitAlpha(filtered, width, height, colors)
  // Level 6 (zlib's default), measured on a 600 x 200 drawn signature: 2.3 ms and 4.5 KB; level 3
  // 1.8 ms and 7.3 KB; level 9 10.6 ms and 3.9 KB. pdf-lib took 16 ms for 3.9 KB. Once per image.
  return { width, height, colorSpace, colors, color: deflateSync(color, { level: 6 }), alpha: deflateSync(alpha, { level: 6 }) }
}

interface Header { width: number; height: number; bitDepth: number; colorType: number; interlace: number; transparencyKey: boolean }

/** IHDR and the IDAT chunks joined (checkImageStructure has checked the chunk walk and CRCs). */
function readChunks(png: Buffer): { header: Header; data: Buffer } {
  let header: Header | undefined
  const parts: Buffer[] = []
  let transparencyKey = false
  for (let offset = 8; offset + 12 <= png.length;) {
    const length = png.readUInt32BE(offset)
    const type = png.toString('latin1', offset + 4, offset + 8)
    const body = png.subarray(offset + 8, offset + 8 + length)
    if (body.length !== length) throw ERR_IMAGE_INVALID(`The PNG is truncated (chunk ${type})`)
    if (type === 'IHDR' && length === 13) {
      header = { width: body.readUInt32BE(0), height: body.readUInt32BE(4), bitDepth: body[8]!, colorType: body[9]!, interlace: body[12]!, transparencyKey: false }
    } else if (type === 'IDAT') parts.push(body)
    else if (type === 'tRNS') transparencyKey = true
    else if (type === 'IEND') break
    offset += 12 + length
  }
  if (!header || parts.length === 0) throw ERR_IMAGE_INVALID('The PNG has no header or no image data')
  return { header: { ...header, transparencyKey }, data: parts.length === 1 ? parts[0]! : Buffer.concat(parts) }
}

function inflateRows(data: Buffer, expected: number): Buffer {
  let rows: Buffer
  try {
    // One byte past the expected size: more data than the header announces is an error too.
    rows = inflateSync(data, { maxOutputLength: expected + 1 })
  } catch (cause) {
    throw ERR_IMAGE_INVALID('The PNG image data does not inflate', { cause })
  }
  if (rows.length !== expected) throw ERR_IMAGE_INVALID(`The PNG image data holds ${rows.length} bytes; its header announces ${expected}`)
  return rows
}

/** Splits filtered rows of `colors` + 1 channels into filtered colour rows and filtered alpha rows. */
function splitAlpha(filtered: Buffer, width: number, height: number, colors: number): { color: Buffer; alpha: Buffer } {
  const color = Buffer.allocUnsafe((width * colors + 1) * height)
  const alpha = Buffer.allocUnsafe((width + 1) * height)
  let from = 0
  let c = 0
  let a = 0
  for (let y = 0; y < height; y++) {
    const filter = filtered[from++]!
    color[c++] = filter
    alpha[a++] = filter
    for (let x = 0; x < width; x++) {
      for (let k = 0; k < colors; k++) color[c++] = filtered[from++]!
      alpha[a++] = filtered[from++]!
    }
  }
  return { color, alpha }
}
