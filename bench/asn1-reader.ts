// Issue 35 item 9: which maintained library pdf/read-der.ts decodes outside ASN.1 with. Each row
// reads the same bytes and visits every element's offsets: asn1js 4.0.0 as read-der.ts used it
// (fromBER inside the limits, plus the walk that refuses a child running past its parent), and
// read-der.ts as it is (@lapo/asn1js under its limits). A fresh copy of the input each time, so
// read-der.ts's cache of Buffers already read never answers. @lapo/asn1js without read-der.ts's
// limits (it tries to decode inside every OCTET and BIT STRING) is shown for reference.
// Run: node --import tsx bench/asn1-reader.ts   (about 10 s)
import { ASN1 } from '@lapo/asn1js'
import * as asn1js from 'asn1js'
import { Bench } from 'tinybench'
import { createCertificateAuthority, issueUserCertificate, readP12 } from '../plugins/signature/certificates/index.ts'
import { createDetachedCms } from '../plugins/signature/pdf/pkcs7-signer.ts'
import { kids, MAX_DEPTH, parseRoot, type Node } from '../plugins/signature/pdf/read-der.ts'
import { buildCrl } from '../plugins/signature/pki/build-crl.ts'
import { certificateFields, pemToDer } from '../plugins/signature/pki/certificate-fields.ts'

const ca = createCertificateAuthority({ commonName: 'Bench CA' })
const issued = issueUserCertificate(ca, { name: 'Bench Signer', email: 'bench@example.org' })
const identity = readP12(issued.p12, issued.password)
const digest = Buffer.alloc(32, 9)
const revoked = Array.from({ length: 20 }, (_, i) => ({ serial: (0x1000 + i).toString(16), revokedAt: new Date(Date.UTC(2026, 0, 1 + i)) }))
const inputs: Array<[string, Buffer]> = [
  ['CMS, signer certificate only', createDetachedCms(digest, { privateKey: identity.privateKey, certificates: identity.certificates.slice(0, 1) })],
  ['CMS, signer and CA certificates', createDetachedCms(digest, { privateKey: identity.privateKey, certificates: [identity.certificates[0]!, pemToDer(ca.certificatePem)] })],
  ['CRL, 20 revoked serials', buildCrl(revoked, { privateKey: ca.privateKey, certificate: certificateFields(pemToDer(ca.certificatePem)) }, new Date())],
]

/** asn1js 4.0.0 as read-der.ts called it, with its length walk; returns the number of elements. */
function withAsn1js(der: Buffer): number {
  const copy = Buffer.from(der)
  const view = new Uint8Array(copy.buffer, copy.byteOffset, copy.length)
  const { offset, result } = asn1js.fromBER(view, { copyInput: false, maxDepth: MAX_DEPTH, maxNodes: copy.length, maxContentLength: copy.length, parseEmbedded: false })
  if (offset === -1 || result.error) throw new Error(`asn1js: ${result.error}`)
  let count = 0
  const pending: asn1js.AsnType[] = [result]
  for (let block = pending.pop(); block; block = pending.pop()) {
    const { idBlock, lenBlock } = block
    if (!lenBlock.isIndefiniteForm && block.valueBeforeDecodeView.byteLength !== idBlock.blockLength + lenBlock.blockLength + lenBlock.length) throw new Error('past its parent')
    count += block.valueBeforeDecodeView.byteOffset >= 0 ? 1 : 0
    if (idBlock.isConstructed) pending.push(...(block.valueBlock as unknown as { value: asn1js.AsnType[] }).value)
  }
  return count
}

/** read-der.ts: parse, then every node's offsets. */
function withReadDer(der: Buffer): number {
  let count = 0
  const pending: Node[] = [parseRoot(Buffer.from(der))]
  for (let node = pending.pop(); node; node = pending.pop()) {
    count += node.end > node.start ? 1 : 0
    if (node.tag & 0x20) pending.push(...kids(node))
  }
  return count
}

/** @lapo/asn1js as its README calls it: no depth limit, decodes inside strings when it can. */
function withLapoBare(der: Buffer): number {
  let count = 0
  const pending: ASN1[] = [ASN1.decode(Buffer.from(der))]
  for (let element = pending.pop(); element; element = pending.pop()) {
    count += element.header > 0 ? 1 : 0
    if (element.sub) pending.push(...element.sub)
  }
  return count
}

const readers = [['asn1js 4.0.0', withAsn1js], ['read-der.ts (@lapo/asn1js 2.1.3)', withReadDer], ['@lapo/asn1js bare', withLapoBare]] as const
for (const [name, der] of inputs) {
  const counts = readers.slice(0, 2).map(([, read]) => read(der))
  if (counts[0] !== counts[1]) throw new Error(`${name}: asn1js sees ${counts[0]} elements, read-der.ts ${counts[1]}`)
}

const bench = new Bench({ time: 1000 })
for (const [name, der] of inputs) for (const [reader, read] of readers) bench.add(`${name}|${reader}`, () => read(der))
await bench.run()
const micros = (task: string) => {
  const result = bench.tasks.find((t) => t.name === task)!.result as unknown as { latency: { mean: number; p50?: number } }
  return (result.latency.p50 ?? result.latency.mean) * 1000
}
for (const [name, der] of inputs) {
  const [asn1, lapo, bare] = readers.map(([reader]) => micros(`${name}|${reader}`)) as [number, number, number]
  console.log(`${name} (${der.length} bytes): asn1js ${asn1.toFixed(1)} µs, read-der.ts on @lapo/asn1js ${lapo.toFixed(1)} µs (${(asn1 / lapo).toFixed(1)}x faster), @lapo/asn1js bare ${bare.toFixed(1)} µs`)
}
