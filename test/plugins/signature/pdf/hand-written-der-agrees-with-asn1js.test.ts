// The DER writers on the signing path stay hand-written (bench/asn1-writer.ts: asn1js builds the
// same bytes 18-48x slower). So they are fuzzed against the library: what the hand writers encode,
// asn1js decodes to the same values, and what asn1js encodes from the same values is the same bytes.
import * as asn1js from 'asn1js'
import fc from 'fast-check'
import t from 'tap'
import { octetString, oid, setOf, time, tlv, unsignedInteger } from '../../../../plugins/signature/pdf/der.ts'
import { bitString, generalizedTime, namedBits, smallInteger } from '../../../../plugins/signature/pki/der-values.ts'
import { kids, oidOf, parseRoot } from '../../../../plugins/signature/pdf/read-der.ts'

const decode = (der: Buffer) => {
  const { offset, result } = asn1js.fromBER(new Uint8Array(der))
  if (offset !== der.length || result.error) throw new Error(`asn1js refuses ${der.toString('hex')}: ${result.error}`)
  return result
}
const runs = { numRuns: 300 }

// First arc 0-2, second below 40 unless the first is 2; further arcs up to 128 bits (UUIDs under 2.25).
const dotted = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.bigInt({ min: 0n, max: 2n ** 70n }), fc.array(fc.bigInt({ min: 0n, max: 2n ** 128n - 1n }), { maxLength: 8 }))
  .map(([first, second, rest]) => [first, first < 2 ? second % 40n : second, ...rest].join('.'))

t.test('OIDs: the hand encoding reads back exactly; asn1js encodes the same bytes where its arcs are numbers', async (t) => {
  fc.assert(fc.property(dotted, (text) => {
    const der = oid(text)
    const block = decode(der)
    return block instanceof asn1js.ObjectIdentifier && oidOf(parseRoot(der)) === text
  }), runs)
  const numeric = fc.tuple(fc.integer({ min: 0, max: 2 }), fc.integer({ min: 0, max: 39 }), fc.array(fc.integer({ min: 0, max: 2 ** 48 }), { maxLength: 8 }))
    .map((arcs) => [arcs[0], arcs[1], ...arcs[2]].join('.'))
  fc.assert(fc.property(numeric, (text) => Buffer.from(new asn1js.ObjectIdentifier({ value: text }).toBER()).equals(oid(text))), runs)
  t.pass('both directions held')
})

t.test('INTEGERs: unsigned magnitudes and small numbers agree with asn1js both ways', async (t) => {
  fc.assert(fc.property(fc.uint8Array({ minLength: 1, maxLength: 40 }), (bytes) => {
    const magnitude = Buffer.from(bytes)
    const value = BigInt(`0x${magnitude.toString('hex')}`)
    for (const der of [unsignedInteger(magnitude)]) {
      const block = decode(der)
      if (!(block instanceof asn1js.Integer) || block.toBigInt() !== value) return false
      if (!Buffer.from(asn1js.Integer.fromBigInt(value).toBER()).equals(der)) return false
    }
    return true
  }), runs)
  fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (n) => {
    const block = decode(smallInteger(n))
    return block instanceof asn1js.Integer && block.toBigInt() === BigInt(n) && Buffer.from(new asn1js.Integer({ value: n }).toBER()).equals(smallInteger(n))
  }), runs)
  t.pass('both directions held')
})

t.test('times: UTCTime/GeneralizedTime and RFC 3161 fractions read back as the same instant', async (t) => {
  const date = fc.date({ min: new Date(Date.UTC(1950, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true })
  fc.assert(fc.property(date, (when) => {
    const seconds = new Date(Math.floor(when.getTime() / 1000) * 1000)
    const signing = decode(time(when)) as asn1js.UTCTime | asn1js.GeneralizedTime
    const stamped = decode(generalizedTime(when, { millis: true })) as asn1js.GeneralizedTime
    return signing.toDate().getTime() === seconds.getTime() && stamped.toDate().getTime() === when.getTime()
  }), runs)
  t.pass('held')
})

t.test('OCTET STRINGs of any length, BIT STRINGs and SET OF: same content, same bytes', async (t) => {
  fc.assert(fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => {
    const content = Buffer.from(bytes)
    const block = decode(octetString(content))
    return block instanceof asn1js.OctetString && Buffer.from(block.valueBlock.valueHexView).equals(content)
      && Buffer.from(new asn1js.OctetString({ valueHex: content }).toBER()).equals(octetString(content))
  }), { numRuns: 60 })
  fc.assert(fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), (bytes) => {
    const block = decode(bitString(Buffer.from(bytes)))
    return block instanceof asn1js.BitString && block.valueBlock.unusedBits === 0 && Buffer.from(block.valueBlock.valueHexView).equals(Buffer.from(bytes))
  }), runs)
  fc.assert(fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 63 }), { minLength: 1, maxLength: 9 }), (bits) => {
    const block = decode(namedBits(...bits)) as asn1js.BitString
    const view = block.valueBlock.valueHexView
    const set = (bit: number) => ((view[bit >> 3] ?? 0) & (0x80 >> (bit & 7))) !== 0
    return Array.from({ length: 64 }, (_, bit) => set(bit) === bits.includes(bit)).every(Boolean)
  }), runs)
  fc.assert(fc.property(fc.array(fc.uint8Array({ maxLength: 40 }), { minLength: 1, maxLength: 12 }), (items) => {
    const der = setOf(...items.map((item) => tlv(0x04, Buffer.from(item))))
    const read = kids(parseRoot(der)).map((node) => node.buf.subarray(node.start, node.end))
    return read.every((item, i) => i === 0 || Buffer.compare(read[i - 1]!, item) <= 0) && decode(der) instanceof asn1js.Set
  }), runs)
  t.pass('held')
})
