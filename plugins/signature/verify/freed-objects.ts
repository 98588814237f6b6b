// The objects an update marks free in its cross-reference section: "f" entries of a table, type 0
// rows of a cross-reference stream. pdf-lib reads a file's objects front to back and never looks
// at those entries, so a freed object stays in its view, while readers that follow the
// cross-reference (mupdf, Acrobat) read every reference to it as null: an update that writes no
// object at all can hide, or uncover, what a page shows.
import { inflateSync } from 'node:zlib'
import { PDFArray, PDFContext, PDFDict, PDFName, PDFNumber, PDFObjectParser, PDFRawStream } from 'pdf-lib'

const N = (name: string) => PDFName.of(name)

/** Object numbers (never 0, the head of the free list) that the section [start, end) marks free. */
export function freedObjectNumbers(bytes: Buffer, start: number, end: number, maxDecodedBytes: number): number[] {
  const section = bytes.toString('latin1', start, end)
  const freed = new Set<number>()
  for (const match of section.matchAll(/(?:^|[\r\n])xref[ \t]*[\r\n]/g)) {
    for (const number of freeInTable(section, match.index! + match[0].length)) freed.add(number)
  }
  for (let at = section.indexOf('/XRef'); at >= 0; at = section.indexOf('/XRef', at + 5)) {
    for (const number of freeInStream(bytes, start, section, at, maxDecodedBytes)) freed.add(number)
  }
  freed.delete(0)
  return [...freed]
}

/** A classic table: subsections "first count", then 20-byte entries "offset generation n|f". */
function freeInTable(section: string, from: number): number[] {
  const freed: number[] = []
  const header = /\s*(\d{1,10})[ \t]+(\d{1,10})[ \t]*\r?\n?/y
  const entry = /\s*(\d{10})[ \t](\d{5})[ \t]([nf])/y
  let at = from
  for (;;) {
    header.lastIndex = at
    const subsection = header.exec(section)
    if (!subsection) return freed
    at = header.lastIndex
    const first = Number(subsection[1])
    const count = Math.min(Number(subsection[2]), section.length)
    for (let i = 0; i < count; i++) {
      entry.lastIndex = at
      const row = entry.exec(section)
      if (!row) return freed
      at = entry.lastIndex
      if (row[3] === 'f') freed.push(first + i)
    }
  }
}

/** A cross-reference stream whose dictionary holds the "/XRef" at `at`: its type 0 rows. */
function freeInStream(bytes: Buffer, sectionStart: number, section: string, at: number, maxDecodedBytes: number): number[] {
  const header = /(\d{1,10})\s+(\d{1,5})\s+obj\s*/g
  let objectAt = -1
  let bodyAt = -1
  for (const match of section.slice(Math.max(0, at - 4096), at).matchAll(header)) {
    objectAt = match.index!
    bodyAt = Math.max(0, at - 4096) + match.index! + match[0].length
  }
  if (objectAt < 0) return []
  let stream: unknown
  try {
    stream = PDFObjectParser.forBytes(bytes.subarray(sectionStart + bodyAt), PDFContext.create()).parseObject()
  } catch {
    return []
  }
  if (!(stream instanceof PDFRawStream) || stream.dict.get(N('Type')) !== N('XRef')) return []
  const rows = decodeRows(stream, maxDecodedBytes)
  const widths = numbers(stream.dict.get(N('W')))
  if (!rows || widths.length !== 3 || widths.some((w) => w < 0 || w > 8)) return []
  const size = stream.dict.get(N('Size'))
  const index = numbers(stream.dict.get(N('Index')))
  if (index.length === 0 && size instanceof PDFNumber) index.push(0, size.asNumber())
  const rowLength = widths[0]! + widths[1]! + widths[2]!
  const freed: number[] = []
  let row = 0
  for (let i = 0; i + 1 < index.length; i += 2) {
    for (let k = 0; k < index[i + 1]! && (row + 1) * rowLength <= rows.length; k++, row++) {
      // A missing type field means type 1 (in use).
      const type = widths[0] === 0 ? 1 : readNumber(rows, row * rowLength, widths[0]!)
      if (type === 0) freed.push(index[i]! + k)
    }
  }
  return freed
}

function decodeRows(stream: PDFRawStream, maxDecodedBytes: number): Buffer | undefined {
  const filter = stream.dict.get(N('Filter'))
  const name = filter instanceof PDFArray ? (filter.size() === 1 ? filter.get(0) : undefined) : filter
  let data = Buffer.from(stream.getContents())
  if (name === N('FlateDecode')) {
    try {
      data = inflateSync(data, { maxOutputLength: maxDecodedBytes })
    } catch {
      return undefined
    }
  } else if (name !== undefined) {
    return undefined
  }
  const parms = stream.dict.get(N('DecodeParms'))
  const predictor = parms instanceof PDFDict ? parms.get(N('Predictor')) : undefined
  if (!(predictor instanceof PDFNumber) || predictor.asNumber() < 10) return data
  const columns = parms instanceof PDFDict ? parms.get(N('Columns')) : undefined
  return unpredictPng(data, columns instanceof PDFNumber ? columns.asNumber() : 1)
}

/** PNG predictors (PDF 32000-1, 7.4.4.4): each row starts with its filter type; one byte per sample. */
function unpredictPng(data: Buffer, columns: number): Buffer | undefined {
  if (!Number.isSafeInteger(columns) || columns < 1) return undefined
  const rows = Math.floor(data.length / (columns + 1))
  const out = Buffer.alloc(rows * columns)
  for (let r = 0; r < rows; r++) {
    const type = data[r * (columns + 1)]!
    for (let c = 0; c < columns; c++) {
      const raw = data[r * (columns + 1) + 1 + c]!
      const left = c > 0 ? out[r * columns + c - 1]! : 0
      const up = r > 0 ? out[(r - 1) * columns + c]! : 0
      const upLeft = r > 0 && c > 0 ? out[(r - 1) * columns + c - 1]! : 0
      const base = type === 1 ? left : type === 2 ? up : type === 3 ? (left + up) >> 1 : type === 4 ? paeth(left, up, upLeft) : 0
      out[r * columns + c] = (raw + base) & 255
    }
  }
  return out
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c
  const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)]
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}

function readNumber(bytes: Buffer, at: number, width: number): number {
  let value = 0
  for (let i = 0; i < width; i++) value = value * 256 + bytes[at + i]!
  return value
}

function numbers(value: unknown): number[] {
  return value instanceof PDFArray ? value.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : NaN)).filter(Number.isSafeInteger) : []
}
