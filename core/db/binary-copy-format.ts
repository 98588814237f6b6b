// PostgreSQL's binary COPY format (the "Binary Format" section of COPY's documentation), read
// back into rows: the one way node-postgres hands over a column's bytes unchanged. Its ordinary
// results are text (bytea as hex, twice the size, decoded in JavaScript), and its `binary: true`
// results are wrong for bytea (pg-protocol 1.16 decodes every field as UTF-8 first).
//
// Layout: an 11-byte signature, a 32-bit flags word, a 32-bit header extension length and that
// many bytes; then per row a 16-bit field count and per field a 32-bit length (-1: NULL) and the
// bytes; a field count of -1 ends the data. Integers are big-endian.

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1')
/** Bit 16 of the flags: each row starts with an OID (WITH OIDS, gone since PostgreSQL 12). */
const HAS_OIDS = 1 << 16

export class BinaryCopyFormatError extends Error {
  constructor(message: string) {
    super(`Binary COPY data: ${message}`)
    this.name = 'BinaryCopyFormatError'
  }
}

/**
 * Rows of binary COPY data, each a list of its fields' raw bytes (bytea: the value itself; other
 * types: their binary send format), null for NULL. `chunks` are the CopyData messages in order,
 * owned by the caller: a field inside one chunk is a view of it, not a copy; only a field that
 * straddles chunks is copied.
 */
export function parseBinaryCopy(chunks: readonly Buffer[]): Array<Array<Buffer | null>> {
  const reader = new ChunkReader(chunks)
  if (!reader.take(SIGNATURE.length, 'signature').equals(SIGNATURE)) throw new BinaryCopyFormatError('no PGCOPY signature')
  if (reader.int32('flags') & HAS_OIDS) throw new BinaryCopyFormatError('rows carry OIDs')
  reader.take(reader.int32('header extension length'), 'header extension')
  const rows: Array<Array<Buffer | null>> = []
  for (;;) {
    const count = reader.int16('field count')
    if (count === -1) break
    if (count < 0) throw new BinaryCopyFormatError(`field count ${count}`)
    const row: Array<Buffer | null> = []
    for (let i = 0; i < count; i++) {
      const length = reader.int32('field length')
      if (length < -1) throw new BinaryCopyFormatError(`field length ${length}`)
      row.push(length === -1 ? null : reader.take(length, 'field'))
    }
    rows.push(row)
  }
  if (!reader.atEnd()) throw new BinaryCopyFormatError('bytes after the trailer')
  return rows
}

class ChunkReader {
  #chunk = 0
  #offset = 0

  constructor(readonly chunks: readonly Buffer[]) {}

  int16(what: string): number {
    return this.take(2, what).readInt16BE(0)
  }

  int32(what: string): number {
    return this.take(4, what).readInt32BE(0)
  }

  take(length: number, what: string): Buffer {
    this.#skipEmpty()
    const current = this.chunks[this.#chunk]
    if (current && this.#offset + length <= current.length) {
      const view = current.subarray(this.#offset, this.#offset + length)
      this.#offset += length
      return view
    }
    const copy = Buffer.allocUnsafe(length)
    let filled = 0
    while (filled < length) {
      this.#skipEmpty()
      const chunk = this.chunks[this.#chunk]
      if (!chunk) throw new BinaryCopyFormatError(`ends inside a ${what}`)
      const n = Math.min(length - filled, chunk.length - this.#offset)
      chunk.copy(copy, filled, this.#offset, this.#offset + n)
      filled += n
      this.#offset += n
    }
    return copy
  }

  atEnd(): boolean {
    this.#skipEmpty()
    return this.#chunk >= this.chunks.length
  }

  #skipEmpty(): void {
    while (this.#chunk < this.chunks.length && this.#offset >= this.chunks[this.#chunk]!.length) {
      this.#chunk++
      this.#offset = 0
    }
  }
}
