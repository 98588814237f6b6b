// Reads the DER (and the BER some CMS producers write) that strangers send: signature values,
// timestamp tokens and replies, OCSP responses and requests, CRLs, certificates. asn1js does the
// decoding, inside one set of limits; this file only gives its tree the offsets and a few value
// readers the callers share, so no caller decodes tags, lengths, identifiers or times itself.
import * as asn1js from 'asn1js'

/** Deeper than any structure the app reads (a CMS with a timestamp is about 15 levels). */
export const MAX_DEPTH = 64

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
  block: asn1js.AsnType
  /** Where buf[0] sits in the memory asn1js read (buf may be a copy of those bytes). */
  base: number
}

/**
 * asn1js costs about 2 µs per byte read (asn1js 4.0.0 on Node 24), and a verification hands the
 * same bytes on: a signature's CMS found in the PDF, then read; a value's encoding (raw()) read
 * again on its own. Those Buffers map to the tree already made, so no byte is decoded twice.
 */
const parsed = new WeakMap<Buffer, Node>()

/**
 * The first value in `buf` (bytes after it, such as a signature's zero padding, are left alone).
 * `der` refuses indefinite lengths anywhere inside, for readers that take DER only.
 */
export function parseNode(buf: Buffer, options: { der?: boolean } = {}): Node {
  const known = parsed.get(buf)
  if (known) {
    if (options.der) refuseIndefinite(known)
    return known
  }
  if (buf.length === 0) throw new Error('Empty ASN.1 value')
  const view = new Uint8Array(buf.buffer, buf.byteOffset, buf.length)
  // parseEmbedded off: an OCTET or BIT STRING stays bytes until a caller asks to read inside it,
  // each read with its own depth budget. The node and content limits are the input's own size.
  let decoded: asn1js.FromBerResult
  try {
    decoded = asn1js.fromBER(view, { copyInput: false, maxDepth: MAX_DEPTH, maxNodes: buf.length, maxContentLength: buf.length, parseEmbedded: false })
  } catch (cause) {
    throw new Error(`Malformed DER value: ${(cause as Error).message}`)
  }
  const { offset, result } = decoded
  if (offset === -1 || result.error) throw new Error(result.error === 'Maximum ASN.1 nesting depth exceeded' ? 'ASN.1 nested too deep' : `Malformed DER value: ${result.error || 'unreadable'}`)
  checkLengths(result)
  const node = toNode(result, buf, view.byteOffset)
  parsed.set(buf, node)
  if (options.der) refuseIndefinite(node)
  return node
}


/** A whole buffer as one value: bytes after it are refused. */
export function parseRoot(buf: Buffer, options: { der?: boolean } = {}): Node {
  const node = parseNode(buf, options)
  if (node.end !== buf.length) throw new Error('Bytes follow the ASN.1 value')
  return node
}

/**
 * asn1js 4.0.0 lets a child whose length runs past its parent's end read on into the bytes after
 * the parent (30 04 04 05 ... decodes a 5-byte OCTET STRING), so every definite length is checked
 * against what was read for it.
 */
function checkLengths(root: asn1js.AsnType): void {
  const pending = [root]
  for (let block = pending.pop(); block; block = pending.pop()) {
    const { idBlock, lenBlock } = block
    if (!lenBlock.isIndefiniteForm && block.valueBeforeDecodeView.byteLength !== idBlock.blockLength + lenBlock.blockLength + lenBlock.length) {
      throw new Error('Truncated DER value: an element runs past the one that holds it')
    }
    if (idBlock.isConstructed) pending.push(...(block.valueBlock as unknown as { value: asn1js.AsnType[] }).value)
  }
}

function toNode(block: asn1js.AsnType, buf: Buffer, base: number): Node {
  const { idBlock, lenBlock } = block
  const encoded = block.valueBeforeDecodeView
  const start = encoded.byteOffset - base
  const end = start + encoded.byteLength
  const contentStart = start + idBlock.blockLength + lenBlock.blockLength
  const contentEnd = lenBlock.isIndefiniteForm ? end - 2 : end
  if (lenBlock.isIndefiniteForm && block.warnings.includes('No EndOfContent block encoded')) throw new Error('Unterminated indefinite-length ASN.1 value')
  const number = idBlock.tagNumber < 31 ? idBlock.tagNumber : 0x1f
  const tag = ((idBlock.tagClass - 1) << 6) | (idBlock.isConstructed ? 0x20 : 0) | number
  return { tag, start, contentStart, contentEnd, end, buf, block, base }
}

const childrenOf = (node: Node): asn1js.AsnType[] => {
  if (!node.block.idBlock.isConstructed) throw new Error('Expected a constructed ASN.1 value')
  return (node.block.valueBlock as unknown as { value: asn1js.AsnType[] }).value
}

export function kids(node: Node): Node[] {
  return childrenOf(node).map((block) => toNode(block, node.buf, node.base))
}

function refuseIndefinite(root: Node): void {
  const pending = [root]
  for (let node = pending.pop(); node; node = pending.pop()) {
    if (node.block.lenBlock.isIndefiniteForm) throw new Error('Indefinite length in DER')
    if (node.block.idBlock.isConstructed) pending.push(...kids(node))
  }
}

export const content = (node: Node): Buffer => node.buf.subarray(node.contentStart, node.contentEnd)
/** The whole encoding; reading it again (parseNode) gives this node's tree without decoding. */
export function raw(node: Node): Buffer {
  const encoding = node.buf.subarray(node.start, node.end)
  parsed.set(encoding, toNode(node.block, encoding, node.base + node.start))
  return encoding
}

/** `copy` holds the same bytes as `node`'s encoding (X509Certificate.raw): reading it gives `node`'s tree. */
export function sameBytes(copy: Buffer, node: Node): void {
  if (copy.equals(node.buf.subarray(node.start, node.end))) parsed.set(copy, toNode(node.block, copy, node.base + node.start))
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
  // Segments nest at most MAX_DEPTH deep: asn1js refused deeper trees when parsing.
  if (node.tag === 0x24 || node.tag === 0xa0) return Buffer.concat(kids(node).map(octets))
  throw new Error('Not an OCTET STRING')
}

/** A BIT STRING's bits, without the unused-bits byte. */
export function bits(node: Node | undefined): Buffer {
  if (!node || node.tag !== 0x03 || node.contentEnd === node.contentStart) throw new Error('Not a BIT STRING')
  return content(node).subarray(1)
}

/**
 * The dotted OBJECT IDENTIFIER. Arcs are read as BigInt from asn1js's base-128 groups: one under
 * 2.25 is a UUID (128 bits), past what a number holds and what asn1js itself prints in decimal.
 */
export function oidOf(node: Node | undefined): string {
  if (!node || node.tag !== 0x06 || !(node.block instanceof asn1js.ObjectIdentifier)) throw new Error('Not an OBJECT IDENTIFIER')
  const arcs = node.block.valueBlock.value
  if (arcs.length === 0) throw new Error('Malformed OBJECT IDENTIFIER')
  const values = arcs.map((arc) => arc.valueHexView.reduce((value, group) => (value << 7n) | BigInt(group), 0n))
  const first = values[0]!
  const head = first < 80n ? [first / 40n, first % 40n] : [2n, first - 80n]
  return [...head, ...values.slice(1)].join('.')
}

/** UTCTime or GeneralizedTime. */
export function timeOf(node: Node | undefined): Date {
  const block = node?.block
  if (!(block instanceof asn1js.UTCTime || block instanceof asn1js.GeneralizedTime)) throw new Error('Expected a time')
  const date = block.toDate()
  if (Number.isNaN(date.getTime())) throw new Error('Unreadable time')
  return date
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
  if (!(node?.block instanceof asn1js.Boolean)) throw new Error('Expected a BOOLEAN')
  return node.block.getValue()
}

function integerBytes(node: Node | undefined): Buffer {
  if (!node || node.tag !== 0x02 || node.contentEnd === node.contentStart) throw new Error('Expected an INTEGER')
  return content(node)
}
