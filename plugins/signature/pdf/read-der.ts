// Reads the DER (and the BER some CMS producers write) that strangers send: signature values,
// timestamp tokens and replies, OCSP responses and requests, CRLs, certificates. @lapo/asn1js does
// the decoding, inside one set of limits; this file only gives its tree the offsets and a few value
// readers the callers share, so no caller decodes tags, lengths, identifiers or times itself, and
// no other file sees the library (bench/asn1-reader.ts measured it against asn1js 4).
/// <reference path="./lapo-asn1js.d.ts" />
import { ASN1, Stream } from '@lapo/asn1js'

/** Deeper than any structure the app reads (a CMS with a timestamp is about 15 levels). */
export const MAX_DEPTH = 64

/** What this file keeps of a decoded element: where it starts, its header size and its length. */
interface Element {
  readonly stream: { readonly pos: number }
  readonly header: number
  /** The content length; for an indefinite length, minus (content + end-of-contents). */
  readonly length: number
  /** Children of a constructed element; null for a primitive one. */
  readonly sub: readonly Element[] | null
}

export interface Node {
  /** The identifier octet (0x1f in the low bits for a high tag number). */
  tag: number
  /** Offset of the tag byte in `buf`. */
  start: number
  contentStart: number
  /** End of the content (before an end-of-contents marker). */
  contentEnd: number
  /** End of the whole element. */
  end: number
  buf: Buffer
  /** The decoded element (read by this file only). */
  element: Element
  /** Where buf[0] sits in the bytes that were decoded (buf may be a copy of some of them). */
  base: number
}

/**
 * A verification hands the same bytes on: a signature's CMS found in the PDF, then read; a value's
 * encoding (raw()) read again on its own. Those Buffers map to the tree already made, so no byte
 * is decoded twice.
 */
const parsed = new WeakMap<Buffer, Node>()
/** Trees already walked for indefinite lengths. */
const definite = new WeakSet<Element>()

/**
 * @lapo/asn1js looks for a value inside every OCTET STRING and BIT STRING (and keeps it when the
 * bytes happen to decode). Here such strings stay bytes until a caller reads inside one, with a
 * depth budget of its own: a decode started inside a primitive is stopped with this (thrown
 * without a stack; the library catches it and keeps the bytes).
 */
const STAYS_BYTES = new Error('A primitive value is not read inside')
const TOO_DEEP = 'ASN.1 nested too deep'
/** The identifier octets of the elements being decoded, outermost first. */
const open = new Uint8Array(MAX_DEPTH)
let depth = 0
let tooDeep = false

/** The library's decoder with the limits: depth, tag-number size, end-of-contents shape. */
class LimitedASN1 extends ASN1 {
  static override decode(stream: Stream): ASN1 {
    if (depth > 0 && (open[depth - 1]! & 0x20) === 0) throw STAYS_BYTES
    if (depth === MAX_DEPTH) {
      tooDeep = true
      throw new Error(TOO_DEEP)
    }
    const { enc, pos } = stream
    const id = enc[pos] ?? 0
    // The library reads a high tag number into a BigInt, one shift per byte: cap it at 35 bits.
    if ((id & 0x1f) === 0x1f && [1, 2, 3, 4, 5].every((i) => ((enc[pos + i] ?? 0) & 0x80) !== 0)) throw new Error('ASN.1 tag number too long')
    open[depth++] = id
    try {
      const element = super.decode(stream, undefined, LimitedASN1)
      if (id === 0 && element.length !== 0) throw new Error('Malformed end-of-contents')
      return element
    } finally {
      depth--
    }
  }
}

/**
 * The first value in `buf` (bytes after it, such as a signature's zero padding, are left alone).
 * `der` refuses indefinite lengths anywhere inside, for readers that take DER only.
 */
export function parseNode(buf: Buffer, options: { der?: boolean } = {}): Node {
  const known = parsed.get(buf)
  if (known) {
    if (options.der) refuseIndefinite(known.element)
    return known
  }
  if (buf.length === 0) throw new Error('Empty ASN.1 value')
  const view = new Uint8Array(buf.buffer, buf.byteOffset, buf.length)
  // The library checks each length against the bytes there are and each container's children
  // against its length (a child running past its parent is refused), and refuses a primitive
  // value of indefinite length and an indefinite length without its end-of-contents.
  let element: ASN1
  depth = 0
  tooDeep = false
  try {
    element = LimitedASN1.decode(new Stream(view, 0))
  } catch (cause) {
    throw new Error(tooDeep ? TOO_DEEP : `Malformed DER value: ${(cause as Error).message}`)
  }
  const node = toNode(element, buf, 0)
  parsed.set(buf, node)
  if (options.der) refuseIndefinite(node.element)
  return node
}

/** A whole buffer as one value: bytes after it are refused. */
export function parseRoot(buf: Buffer, options: { der?: boolean } = {}): Node {
  const node = parseNode(buf, options)
  if (node.end !== buf.length) throw new Error('Bytes follow the ASN.1 value')
  return node
}

function toNode(element: Element, buf: Buffer, base: number): Node {
  const start = element.stream.pos - base
  const contentStart = start + element.header
  const { length } = element
  const end = contentStart + Math.abs(length)
  const contentEnd = length < 0 ? end - 2 : end
  return { tag: buf[start]!, start, contentStart, contentEnd, end, buf, element, base }
}

export function kids(node: Node): Node[] {
  const { sub } = node.element
  if ((node.tag & 0x20) === 0 || !sub) throw new Error('Expected a constructed ASN.1 value')
  return sub.map((element) => toNode(element, node.buf, node.base))
}

function refuseIndefinite(root: Element): void {
  if (definite.has(root)) return
  const pending = [root]
  for (let element = pending.pop(); element; element = pending.pop()) {
    if (element.length < 0) throw new Error('Indefinite length in DER')
    if (element.sub) pending.push(...element.sub)
  }
  definite.add(root)
}

export const content = (node: Node): Buffer => node.buf.subarray(node.contentStart, node.contentEnd)
/** The whole encoding; reading it again (parseNode) gives this node's tree without decoding. */
export function raw(node: Node): Buffer {
  const encoding = node.buf.subarray(node.start, node.end)
  parsed.set(encoding, toNode(node.element, encoding, node.base + node.start))
  return encoding
}

/** `copy` holds the same bytes as `node`'s encoding (X509Certificate.raw): reading it gives `node`'s tree. */
export function sameBytes(copy: Buffer, node: Node): void {
  if (copy.equals(node.buf.subarray(node.start, node.end))) parsed.set(copy, toNode(node.element, copy, node.base + node.start))
}

/** A value read from a peer must be there and carry the tag the structure says. */
export function expectTag(node: Node | undefined, tag: number, what: string): Node {
  if (!node || node.tag !== tag) throw new Error(`Expected ${what}`)
  return node
}

/** The child with a context-specific tag [n] (constructed or primitive), if present. */
export function tagged(nodes: Node[], n: number): Node | undefined {
  return nodes.find((node) => node.tag === (0xa0 | n) || node.tag === (0x80 | n))
}

/** The content of an OCTET STRING, joining the segments of a constructed (BER) one. */
export function octets(node: Node): Buffer {
  if (node.tag === 0x04 || node.tag === 0x80) return content(node)
  // Segments nest at most MAX_DEPTH deep: deeper trees were refused when parsing.
  if (node.tag === 0x24 || node.tag === 0xa0) return Buffer.concat(kids(node).map(octets))
  throw new Error('Not an OCTET STRING')
}

/** A BIT STRING's bits, without the unused-bits byte. */
export function bits(node: Node | undefined): Buffer {
  if (!node || node.tag !== 0x03 || node.contentEnd === node.contentStart) throw new Error('Not a BIT STRING')
  return content(node).subarray(1)
}

/** Longer than any arc an identifier carries (a UUID under 2.25 is 128 bits: 19 bytes). */
const MAX_ARC_BYTES = 20

/**
 * The dotted OBJECT IDENTIFIER. An arc of more than 7 base-128 groups is read as a BigInt: one
 * under 2.25 is a UUID (128 bits), past what a number holds.
 */
export function oidOf(node: Node | undefined): string {
  if (!node || node.tag !== 0x06) throw new Error('Not an OBJECT IDENTIFIER')
  const bytes = content(node)
  if (bytes.length === 0 || (bytes[bytes.length - 1]! & 0x80) !== 0) throw new Error('Malformed OBJECT IDENTIFIER')
  const arcs: Array<number | bigint> = []
  for (let from = 0, to = 0; to < bytes.length; from = ++to) {
    while ((bytes[to]! & 0x80) !== 0) to++
    if (to - from >= MAX_ARC_BYTES) throw new Error('Malformed OBJECT IDENTIFIER')
    if (to - from < 7) {
      let value = 0
      for (let i = from; i <= to; i++) value = value * 128 + (bytes[i]! & 0x7f)
      arcs.push(value)
    } else {
      let value = 0n
      for (let i = from; i <= to; i++) value = (value << 7n) | BigInt(bytes[i]! & 0x7f)
      arcs.push(value)
    }
  }
  const first = arcs[0]!
  const head = first < 80 ? [Math.floor(Number(first) / 40), Number(first) % 40] : [2, typeof first === 'bigint' ? first - 80n : first - 80]
  return [...head, ...arcs.slice(1)].join('.')
}

const UTC_TIME = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/
const GENERALIZED_TIME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(?:[.,](\d+))?(Z|[+-]\d{4})$/

/**
 * UTCTime (YYMMDDHHMMSSZ, years 50-99 in the 1900s as RFC 5280 says) or GeneralizedTime
 * (seconds required, a fraction and an offset allowed). A time without a zone, or with a field
 * out of range, is refused rather than guessed.
 */
export function timeOf(node: Node | undefined): Date {
  if (!node || (node.tag !== 0x17 && node.tag !== 0x18)) throw new Error('Expected a time')
  const text = content(node).toString('latin1')
  const match = node.tag === 0x17 ? UTC_TIME.exec(text) : GENERALIZED_TIME.exec(text)
  if (!match) throw new Error('Unreadable time')
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  const fullYear = node.tag === 0x18 ? year : year >= 50 ? 1900 + year : 2000 + year
  const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3))
  const zone = match[8] ?? 'Z'
  const offset = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3, 5)))
  const local = new Date(Date.UTC(fullYear, month - 1, day, hour, minute, second, millis))
  // Date.UTC rolls a 31 April over into May: a field out of range shows as a different field.
  if (local.getUTCFullYear() !== fullYear || local.getUTCMonth() !== month - 1 || local.getUTCDate() !== day || local.getUTCHours() !== hour || local.getUTCMinutes() !== minute || local.getUTCSeconds() !== second) {
    throw new Error('Unreadable time')
  }
  return new Date(local.getTime() - offset * 60_000)
}

/** An INTEGER as upper-case hex without leading zero bytes (how X509Certificate prints serials). */
export function integerHex(node: Node | undefined): string {
  let bytes = integerBytes(node)
  while (bytes.length > 1 && bytes[0] === 0) bytes = bytes.subarray(1)
  return bytes.toString('hex').toUpperCase()
}

/** A small INTEGER (versions, statuses). */
export function smallIntegerOf(node: Node | undefined): number {
  const bytes = integerBytes(node)
  if (bytes.length > 4) throw new Error('Expected a small INTEGER')
  return bytes.readIntBE(0, bytes.length)
}

export function booleanOf(node: Node | undefined): boolean {
  if (!node || node.tag !== 0x01 || node.contentEnd - node.contentStart !== 1) throw new Error('Expected a BOOLEAN')
  return node.buf[node.contentStart] !== 0
}

function integerBytes(node: Node | undefined): Buffer {
  if (!node || node.tag !== 0x02 || node.contentEnd === node.contentStart) throw new Error('Expected an INTEGER')
  return content(node)
}
