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

export interface Tlv {
  tag: number
  /** Offset of the tag byte. */
  start: number
  /** Offset of the first content byte. */
  contentStart: number
  end: number
}

/**
 * Reads one tag-length-value. Strict, because the PKI endpoints read DER from strangers: a
 * header cut short, an indefinite (BER) length, a length in more than 4 bytes or one running
 * past `limit` (the end of the enclosing value) throws instead of yielding a NaN offset.
 */
export function readTlv(der: Buffer, offset: number, limit = der.length): Tlv {
  if (offset + 2 > limit) throw new Error('Truncated DER value')
  const tag = der[offset]!
  let length = der[offset + 1]!
  let contentStart = offset + 2
  if (length & 0x80) {
    const count = length & 0x7f
    if (count === 0 || count > 4 || contentStart + count > limit) throw new Error('Unsupported or truncated DER length')
    length = 0
    for (let i = 0; i < count; i++) length = length * 256 + der[contentStart + i]!
    contentStart += count
  }
  const end = contentStart + length
  if (end > limit) throw new Error('Truncated DER value')
  return { tag, start: offset, contentStart, end }
}

export function children(der: Buffer, parent: Tlv): Tlv[] {
  const result: Tlv[] = []
  for (let at = parent.contentStart; at < parent.end; ) {
    const child = readTlv(der, at, parent.end)
    result.push(child)
    at = child.end
  }
  return result
}

/** The content bytes of a value. */
export const contentOf = (der: Buffer, value: Tlv): Buffer => der.subarray(value.contentStart, value.end)
/** The whole encoding of a value, tag and length included. */
export const encodingOf = (der: Buffer, value: Tlv): Buffer => der.subarray(value.start, value.end)

/** Reads a whole buffer as one value, refusing trailing bytes. */
export function readRoot(der: Buffer): Tlv {
  const root = readTlv(der, 0)
  if (root.end !== der.length) throw new Error('Bytes follow the DER value')
  return root
}

/** A value read from a peer must be there and carry the tag the structure says. */
export function expectTag(value: Tlv | undefined, tag: number, what: string): Tlv {
  if (!value || value.tag !== tag) throw new Error(`Expected ${what}`)
  return value
}

export function readOid(der: Buffer, value: Tlv): string {
  expectTag(value, 0x06, 'an OBJECT IDENTIFIER')
  const bytes = contentOf(der, value)
  const parts: number[] = []
  let n = 0
  for (const byte of bytes) {
    n = n * 128 + (byte & 0x7f)
    if (!(byte & 0x80)) {
      if (parts.length === 0) parts.push(Math.min(2, Math.floor(n / 40)), n - 40 * Math.min(2, Math.floor(n / 40)))
      else parts.push(n)
      n = 0
    }
  }
  return parts.join('.')
}

export function readBoolean(der: Buffer, value: Tlv): boolean {
  expectTag(value, 0x01, 'a BOOLEAN')
  return der[value.contentStart] !== 0
}

/** A small INTEGER (version numbers, statuses). */
export function readSmallInteger(der: Buffer, value: Tlv): number {
  expectTag(value, 0x02, 'an INTEGER')
  const bytes = contentOf(der, value)
  if (bytes.length === 0 || bytes.length > 4) throw new Error('Expected a small INTEGER')
  return bytes.readIntBE(0, bytes.length)
}

/** GeneralizedTime (YYYYMMDDHHMMSS[.fff]Z) or UTCTime (YYMMDDHHMMSSZ). */
export function readTime(der: Buffer, value: Tlv): Date {
  const text = contentOf(der, value).toString('latin1')
  const match = value.tag === 0x18
    ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\.\d+)?Z$/.exec(text)
    : value.tag === 0x17 ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})()Z$/.exec(text) : null
  if (!match) throw new Error('Expected a UTC time')
  const [, y, mo, d, h, mi, s, fraction] = match
  const year = y!.length === 2 ? (Number(y) < 50 ? 2000 : 1900) + Number(y) : Number(y)
  const ms = fraction ? Math.round(Number(`0${fraction}`) * 1000) : 0
  return new Date(Date.UTC(year, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms))
}
