// The DER values the PKI answers need beyond those of pdf/der.ts (which the CMS signer shares):
// big integers, GeneralizedTime, BOOLEAN, ENUMERATED, BIT STRING. Reading a stranger's request
// is pdf/read-der.ts's job.
import { tlv } from '../pdf/der.ts'

/** A non-negative INTEGER from unsigned big-endian bytes (leading zeros dropped, a sign byte added when needed). */
export function unsignedInteger(bytes: Buffer): Buffer {
  let start = 0
  while (start < bytes.length - 1 && bytes[start] === 0) start++
  const trimmed = bytes.subarray(start)
  const body = trimmed.length === 0 ? Buffer.from([0]) : trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed
  return tlv(0x02, body)
}

export function smallInteger(value: number): Buffer {
  const bytes: number[] = []
  for (let n = value; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff)
  return unsignedInteger(Buffer.from(bytes))
}

/** GeneralizedTime in UTC; with `millis`, a fraction without trailing zeros, as RFC 3161 wants. */
export function generalizedTime(date: Date, options: { millis?: boolean } = {}): Buffer {
  const iso = date.toISOString() // 2026-11-22T03:04:07.120Z
  let text = iso.slice(0, 19).replace(/[-:T]/g, '')
  const fraction = iso.slice(20, 23).replace(/0+$/, '')
  if (options.millis && fraction) text += `.${fraction}`
  return tlv(0x18, Buffer.from(`${text}Z`, 'latin1'))
}

export const booleanValue = (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0x00]))
export const enumerated = (value: number) => tlv(0x0a, Buffer.from([value]))
export const utf8String = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'))
/** `[n]` IMPLICIT over a primitive type (tag 0x80 + n). */
export const contextPrimitive = (n: number, content: Buffer) => tlv(0x80 + n, content)

export function bitString(bytes: Buffer, unusedBits = 0): Buffer {
  return tlv(0x03, Buffer.from([unusedBits]), bytes)
}

/** A named BIT STRING with the given bits set, trailing zero bits dropped (DER). */
export function namedBits(...bits: number[]): Buffer {
  const highest = Math.max(...bits)
  const bytes = Buffer.alloc(Math.floor(highest / 8) + 1)
  for (const bit of bits) bytes[bit >> 3]! |= 0x80 >> (bit & 7)
  return bitString(bytes, 7 - (highest & 7))
}
