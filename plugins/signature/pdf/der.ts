// The few DER building blocks a CMS SignedData needs. Written by hand because the structure is
// small and fixed, and encoding straight into Buffers avoids forge's binary-string round trips.

export function tlv(tag: number, ...contents: Buffer[]): Buffer {
  const body = Buffer.concat(contents)
  return Buffer.concat([Buffer.from([tag]), encodeLength(body.length), body])
}

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length])
  const bytes: number[] = []
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}

export const sequence = (...items: Buffer[]) => tlv(0x30, ...items)
export const nullValue = () => Buffer.from([0x05, 0x00])
export const octetString = (bytes: Buffer) => tlv(0x04, bytes)
export const integer = (value: number) => tlv(0x02, Buffer.from([value]))
/** A non-negative INTEGER from its big-endian magnitude (a nonce, a serial number). */
export function unsignedInteger(magnitude: Buffer): Buffer {
  let start = 0
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++
  const trimmed = magnitude.subarray(start)
  return tlv(0x02, trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed)
}
export const booleanValue = (value: boolean) => Buffer.from([0x01, 0x01, value ? 0xff : 0x00])
/** `[n]` EXPLICIT, or IMPLICIT for a constructed type (both are tag 0xa0 + n). */
export const contextConstructed = (n: number, ...items: Buffer[]) => tlv(0xa0 + n, ...items)

/** DER requires the elements of a SET OF in ascending order of their encodings. */
export function setOf(...items: Buffer[]): Buffer {
  return tlv(0x31, ...[...items].sort(Buffer.compare))
}

// A signature encodes the same dozen identifiers each time; a UUID-based one (2.25.x) is not kept.
const encodedOids = new Map<string, Buffer>()

/** Arcs as BigInt: those under 2.25 (a UUID as one integer) exceed 2^53. */
export function oid(dotted: string): Buffer {
  let encoded = encodedOids.get(dotted)
  if (!encoded) {
    encoded = encodeOid(dotted)
    if (encodedOids.size < 256 && !dotted.startsWith('2.25.')) encodedOids.set(dotted, encoded)
  }
  // A copy: callers may write into what they are given.
  return Buffer.from(encoded)
}

function encodeOid(dotted: string): Buffer {
  const parts = dotted.split('.').map(BigInt)
  const bytes: number[] = []
  for (const part of [40n * parts[0]! + parts[1]!, ...parts.slice(2)]) {
    const chunk: number[] = [Number(part & 0x7fn)]
    for (let n = part >> 7n; n > 0n; n >>= 7n) chunk.unshift(Number(n & 0x7fn) | 0x80)
    bytes.push(...chunk)
  }
  return tlv(0x06, Buffer.from(bytes))
}

/** UTCTime for 1950-2049 and GeneralizedTime after, as RFC 5652 requires for signingTime. */
export function time(date: Date): Buffer {
  const iso = date.toISOString() // 2026-11-22T03:04:07.123Z
  const digits = iso.slice(0, 19).replace(/[-:T]/g, '') + 'Z'
  const year = date.getUTCFullYear()
  return year >= 1950 && year < 2050 ? tlv(0x17, Buffer.from(digits.slice(2), 'latin1')) : tlv(0x18, Buffer.from(digits, 'latin1'))
}
