// Appends an incremental update (PDF 32000-1, 7.5.6): the new and changed objects, a classic
// cross-reference section for exactly those objects, and a trailer whose /Prev points at the
// previous section. Every existing byte stays as it is, which is what keeps earlier signatures valid.
import { createHash } from 'node:crypto'
import { PDFName, PDFNumber, type PDFContext, type PDFDict, type PDFObject, type PDFRef } from 'pdf-lib'
import type { TrailerInfo } from './read-trailer.ts'
import { nextFileIdentifier } from './file-identifier.ts'

export interface IncrementalUpdate {
  objects: Array<[PDFRef, PDFObject]>
  previous: TrailerInfo
  context: PDFContext
}

export function appendIncrementalUpdate(original: Uint8Array, update: IncrementalUpdate): Buffer {
  const chunks: Buffer[] = [Buffer.from(original.buffer, original.byteOffset, original.byteLength)]
  let offset = original.byteLength
  const push = (chunk: Buffer) => {
    chunks.push(chunk)
    offset += chunk.length
  }
  // "%%EOF" may be the very last bytes; the next object must start on its own line.
  const last = original[original.byteLength - 1]
  if (last !== 0x0a && last !== 0x0d) push(Buffer.from('\n'))

  const entries: Array<{ number: number; generation: number; offset: number }> = []
  const sorted = [...update.objects].sort(([a], [b]) => a.objectNumber - b.objectNumber)
  for (const [ref, object] of sorted) {
    entries.push({ number: ref.objectNumber, generation: ref.generationNumber, offset })
    push(Buffer.from(`${ref.objectNumber} ${ref.generationNumber} obj\n`, 'latin1'))
    push(serialize(object))
    push(Buffer.from('\nendobj\n', 'latin1'))
  }

  const xrefOffset = offset
  // The newest section's kind is continued: a reader that follows /Prev from a table into a
  // stream (or back) is reading a hybrid file that only some readers accept.
  const streamNumber = update.previous.crossReference === 'stream' ? Math.max(update.previous.size, ...entries.map((e) => e.number + 1)) : undefined
  if (streamNumber !== undefined) entries.push({ number: streamNumber, generation: 0, offset: xrefOffset })
  const size = Math.max(update.previous.size, ...entries.map((e) => e.number + 1))
  const trailer = update.context.obj({})
  trailer.set(PDFName.of('Size'), PDFNumber.of(size))
  trailer.set(PDFName.of('Root'), update.previous.root)
  if (update.previous.info) trailer.set(PDFName.of('Info'), update.previous.info)
  // This version's identifier: from the revision it follows and the objects it adds.
  const seed = createHash('sha256').update(String(update.previous.startxref))
  for (const chunk of chunks.slice(1)) seed.update(chunk)
  trailer.set(PDFName.of('ID'), nextFileIdentifier(update.context, update.previous.id, seed.digest()))
  trailer.set(PDFName.of('Prev'), PDFNumber.of(update.previous.startxref))
  if (streamNumber === undefined) {
    push(Buffer.from(`xref\n${crossReferenceSubsections(entries)}trailer\n${trailer.toString()}\nstartxref\n${xrefOffset}\n%%EOF\n`, 'latin1'))
  } else {
    push(crossReferenceStream(streamNumber, trailer, entries))
    push(Buffer.from(`startxref\n${xrefOffset}\n%%EOF\n`, 'latin1'))
  }
  return Buffer.concat(chunks)
}

/** A cross-reference stream (PDF 32000-1, 7.5.8) for exactly these entries, its own included; type 1 entries, uncompressed. */
function crossReferenceStream(number: number, trailer: PDFDict, entries: Array<{ number: number; generation: number; offset: number }>): Buffer {
  const sorted = [...entries].sort((a, b) => a.number - b.number)
  const index: number[] = []
  for (let i = 0; i < sorted.length; ) {
    let j = i
    while (j + 1 < sorted.length && sorted[j + 1]!.number === sorted[j]!.number + 1) j++
    index.push(sorted[i]!.number, j - i + 1)
    i = j + 1
  }
  // W [1 4 2]: type, a 4-byte offset (files up to 4 GiB), a 2-byte generation.
  const data = Buffer.alloc(sorted.length * 7)
  sorted.forEach((entry, i) => {
    data.writeUInt8(1, i * 7)
    data.writeUInt32BE(entry.offset, i * 7 + 1)
    data.writeUInt16BE(entry.generation, i * 7 + 5)
  })
  const dict = `<< /Type /XRef${trailer.toString().replace(/^<<|>>$/g, '')} /Index [${index.join(' ')}] /W [1 4 2] /Length ${data.length} >>`
  return Buffer.concat([Buffer.from(`${number} 0 obj\n${dict}\nstream\n`, 'latin1'), data, Buffer.from('\nendstream\nendobj\n', 'latin1')])
}

/** Consecutive object numbers share a subsection; each entry is exactly 20 bytes. */
function crossReferenceSubsections(entries: Array<{ number: number; generation: number; offset: number }>): string {
  let text = ''
  for (let i = 0; i < entries.length; ) {
    let j = i
    while (j + 1 < entries.length && entries[j + 1]!.number === entries[j]!.number + 1) j++
    text += `${entries[i]!.number} ${j - i + 1}\n`
    for (const entry of entries.slice(i, j + 1)) {
      text += `${String(entry.offset).padStart(10, '0')} ${String(entry.generation).padStart(5, '0')} n\r\n`
    }
    i = j + 1
  }
  return text
}

function serialize(object: PDFObject): Buffer {
  const buffer = new Uint8Array(object.sizeInBytes())
  object.copyBytesInto(buffer, 0)
  return Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength)
}
