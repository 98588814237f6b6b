// The digests of what each signature covers, from one pass over the file. A signature covers
// [0, a) and [b, b + c): the file up to its own /Contents gap, and the rest of its revision. The
// signatures of incremental updates cover nested prefixes of one file (each later one covers the
// earlier ones' gaps as plain bytes), so hashing every range from 0 reads the file once per
// signature (row 19: ten times). Here the file is hashed once from 0 per digest algorithm, a copy
// of the state is kept at every signature's gap start `a`, and each signature's digest continues
// its own copy over only [b, b + c) (typically the few KiB after its gap). The same pass ends
// at the file's end: the document's SHA-256.
import { createHash, type Hash } from 'node:crypto'

export class CoveredDigests {
  private readonly bytes: Buffer
  /** Where a kept state is wanted: each range's gap start (as subarray(0, a) reads it), and the end. */
  private readonly points: number[]
  /** Per algorithm: the hash state of bytes[0, point) at each point. */
  private readonly prefixes = new Map<string, Map<number, Hash>>()

  /** `ranges`: the /ByteRange of every signature that will ask (those that are not, are hashed on their own). */
  constructor(bytes: Buffer, ranges: ReadonlyArray<readonly number[]>) {
    this.bytes = bytes
    const points = new Set([bytes.length])
    for (const range of ranges) {
      const point = this.pointOf(range[1]!)
      if (point !== undefined) points.add(point)
    }
    this.points = [...points].sort((x, y) => x - y)
  }

  /** The `algorithm` digest of bytes[0, a) followed by bytes[b, b + c), as node:crypto names it. */
  of(algorithm: string, range: readonly number[]): Buffer {
    const [, a, b, c] = range as [number, number, number, number]
    const point = this.pointOf(a)
    const prefix = point === undefined ? undefined : this.prefixesFor(algorithm).get(point)
    const hash = prefix ? prefix.copy() : createHash(algorithm).update(this.bytes.subarray(0, a))
    return hash.update(this.bytes.subarray(b, b + c)).digest()
  }

  /** The whole file's SHA-256 (the report's document.sha256). */
  documentSha256(): Buffer {
    return this.prefixesFor('sha256').get(this.bytes.length)!.copy().digest()
  }

  private prefixesFor(algorithm: string): Map<number, Hash> {
    let kept = this.prefixes.get(algorithm)
    if (!kept) {
      kept = new Map()
      const running = createHash(algorithm)
      let at = 0
      for (const point of this.points) {
        running.update(this.bytes.subarray(at, point))
        at = point
        kept.set(point, running.copy())
      }
      this.prefixes.set(algorithm, kept)
    }
    return kept
  }

  /** bytes[0, a)'s end as subarray(0, a) reads it; undefined for what no prefix state stands for. */
  private pointOf(a: number): number | undefined {
    return Number.isSafeInteger(a) && a >= 0 ? Math.min(a, this.bytes.length) : undefined
  }
}
