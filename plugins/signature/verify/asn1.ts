// A BER reader for what a verifier meets: the DER that signers should write, and the
// indefinite lengths some CMS producers (openssl's streaming mode, old Acrobat) write anyway.
// der.ts's readTlv knows only definite lengths; signing never needed more.

export interface Node {
  tag: number
  /** Offset of the tag byte. */
  start: number
  contentStart: number
  /** End of the content (before an end-of-contents marker). */
  contentEnd: number
  /** End of the whole element. */
  end: number
  buf: Buffer
}

const MAX_DEPTH = 64

export function parseNode(buf: Buffer, offset = 0, depth = 0): Node {
  if (depth > MAX_DEPTH) throw new Error('ASN.1 nested too deep')
  const tag = buf[offset]
  if (tag === undefined || (tag & 0x1f) === 0x1f) throw new Error('Unsupported or truncated ASN.1 tag')
  let length = buf[offset + 1]
  if (length === undefined) throw new Error('Truncated ASN.1 length')
  let contentStart = offset + 2
  if (length === 0x80) {
    // Indefinite length: children until 00 00.
    if (!(tag & 0x20)) throw new Error('Indefinite length on a primitive ASN.1 value')
    let at = contentStart
    while (!(buf[at] === 0 && buf[at + 1] === 0)) {
      if (at >= buf.length) throw new Error('Unterminated indefinite-length ASN.1 value')
      at = parseNode(buf, at, depth + 1).end
    }
    return { tag, start: offset, contentStart, contentEnd: at, end: at + 2, buf }
  }
  if (length & 0x80) {
    const count = length & 0x7f
    if (count > 4) throw new Error('ASN.1 length too large')
    length = 0
    for (let i = 0; i < count; i++) length = length * 256 + (buf[contentStart + i] ?? 0)
    contentStart += count
  }
  const end = contentStart + length
  if (end > buf.length) throw new Error('Truncated ASN.1 value')
  return { tag, start: offset, contentStart, contentEnd: end, end, buf }
}

export function kids(node: Node, depth = 0): Node[] {
  const result: Node[] = []
  for (let at = node.contentStart; at < node.contentEnd; ) {
    const child = parseNode(node.buf, at, depth)
    result.push(child)
    at = child.end
  }
  return result
}

export const content = (node: Node): Buffer => node.buf.subarray(node.contentStart, node.contentEnd)
export const raw = (node: Node): Buffer => node.buf.subarray(node.start, node.end)

/** The content of an OCTET STRING, joining the segments of a constructed (BER) one. */
export function octets(node: Node): Buffer {
  if (node.tag === 0x04 || node.tag === 0x80) return content(node)
  if (node.tag === 0x24 || node.tag === 0xa0) return Buffer.concat(kids(node).map(octets))
  throw new Error('Not an OCTET STRING')
}

/** A BIT STRING's bits, without the unused-bits byte. */
export const bits = (node: Node): Buffer => content(node).subarray(1)

export function oidOf(node: Node): string {
  if (node.tag !== 0x06) throw new Error('Not an OBJECT IDENTIFIER')
  const bytes = content(node)
  const parts: number[] = []
  let value = 0
  for (const [i, byte] of bytes.entries()) {
    value = value * 128 + (byte & 0x7f)
    if (byte & 0x80) continue
    if (parts.length === 0 && i >= 0) parts.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80)
    else parts.push(value)
    value = 0
  }
  return parts.join('.')
}

export function timeOf(node: Node): Date {
  const text = content(node).toString('latin1')
  const match = node.tag === 0x17
    ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?Z$/.exec(text)
    : /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})?(?:[.,](\d+))?Z$/.exec(text)
  if (!match) throw new Error(`Unsupported time ${JSON.stringify(text)}`)
  let year = Number(match[1])
  if (node.tag === 0x17) year += year < 50 ? 2000 : 1900
  const millis = match[7] ? Number(`0.${match[7]}`) * 1000 : 0
  return new Date(Date.UTC(year, Number(match[2]) - 1, Number(match[3]), Number(match[4]), Number(match[5]), Number(match[6] ?? 0), millis))
}

/** An INTEGER as upper-case hex without leading zero bytes (how X509Certificate prints serials). */
export function integerHex(node: Node): string {
  let bytes = content(node)
  while (bytes.length > 1 && bytes[0] === 0) bytes = bytes.subarray(1)
  return bytes.toString('hex').toUpperCase()
}

/** The child with a context-specific tag [n] (constructed or primitive), if present. */
export function tagged(nodes: Node[], n: number): Node | undefined {
  return nodes.find((node) => node.tag === (0xa0 | n) || node.tag === (0x80 | n))
}
