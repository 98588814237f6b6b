// Issue 35 item 9: the DER writers stay hand-written only where asn1js costs more. Each row builds
// the same bytes both ways (checked equal before timing): the OCSP response the /pki responder
// signs (the RSA signature itself left out: it costs the same either way) and the CMS signed
// attributes every PDF signature hashes and signs (pdf/pkcs7-signer.ts).
// Run: node --import tsx bench/asn1-writer.ts   (about 10 s)
import * as asn1js from 'asn1js'
import { Bench } from 'tinybench'
import { contextConstructed, nullValue, octetString, oid, sequence, setOf, time } from '../plugins/signature/pdf/der.ts'
import { bitString, enumerated, generalizedTime } from '../plugins/signature/pki/der-values.ts'

const now = new Date(Date.UTC(2026, 10, 27, 16, 0, 0))
const later = new Date(now.getTime() + 3_600_000)
const certId = sequence(sequence(oid('1.3.14.3.2.26'), nullValue()), octetString(Buffer.alloc(20, 1)), octetString(Buffer.alloc(20, 2)), Buffer.from([0x02, 0x02, 0x01, 0x02]))
const responder = sequence(setOf(sequence(oid('2.5.4.3'), Buffer.concat([Buffer.from([0x0c, 0x07]), Buffer.from('Test CA')]))))
const signature = Buffer.alloc(256, 7)
const digest = Buffer.alloc(32, 9)

function handOcsp(): Buffer {
  const responseData = sequence(contextConstructed(1, responder), generalizedTime(now), sequence(sequence(certId, Buffer.from([0x80, 0x00]), generalizedTime(now), contextConstructed(0, generalizedTime(later)))))
  const basic = sequence(responseData, sequence(oid('1.2.840.113549.1.1.11'), nullValue()), bitString(signature))
  return sequence(enumerated(0), contextConstructed(0, sequence(oid('1.3.6.1.5.5.7.48.1.1'), octetString(basic))))
}

const gt = (date: Date) => new asn1js.GeneralizedTime({ valueDate: date })
const explicit = (n: number, value: asn1js.AsnType) => new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: n }, value: [value] })
const fromDer = (der: Buffer) => asn1js.fromBER(new Uint8Array(der)).result

function libraryOcsp(): Buffer {
  const responseData = new asn1js.Sequence({ value: [
    explicit(1, fromDer(responder)), gt(now),
    new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [fromDer(certId), new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 } }), gt(now), explicit(0, gt(later))] })] }),
  ] })
  const basic = new asn1js.Sequence({ value: [
    responseData,
    new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: '1.2.840.113549.1.1.11' }), new asn1js.Null()] }),
    new asn1js.BitString({ valueHex: signature }),
  ] })
  return Buffer.from(new asn1js.Sequence({ value: [
    new asn1js.Enumerated({ value: 0 }),
    explicit(0, new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: '1.3.6.1.5.5.7.48.1.1' }), new asn1js.OctetString({ valueHex: basic.toBER() })] })),
  ] }).toBER())
}

function handAttributes(): Buffer {
  return setOf(
    sequence(oid('1.2.840.113549.1.9.3'), setOf(oid('1.2.840.113549.1.7.1'))),
    sequence(oid('1.2.840.113549.1.9.5'), setOf(time(now))),
    sequence(oid('1.2.840.113549.1.9.4'), setOf(octetString(digest))),
  )
}

function libraryAttributes(): Buffer {
  const attribute = (type: string, value: asn1js.AsnType) => new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: type }), new asn1js.Set({ value: [value] })] })
  const items = [
    attribute('1.2.840.113549.1.9.3', new asn1js.ObjectIdentifier({ value: '1.2.840.113549.1.7.1' })),
    attribute('1.2.840.113549.1.9.5', new asn1js.UTCTime({ valueDate: now })),
    attribute('1.2.840.113549.1.9.4', new asn1js.OctetString({ valueHex: digest })),
  ].map((item) => Buffer.from(item.toBER()))
  // DER's SET OF order is the library's caller's job too.
  return Buffer.from(new asn1js.Set({ value: items.sort(Buffer.compare).map(fromDer) }).toBER())
}

for (const [name, hand, library] of [['OCSP response', handOcsp, libraryOcsp], ['CMS signed attributes', handAttributes, libraryAttributes]] as const) {
  if (!hand().equals(library())) throw new Error(`${name}: the two writers disagree`)
}
const bench = new Bench({ time: 1000 })
bench.add('OCSP response, hand writer', handOcsp).add('OCSP response, asn1js', libraryOcsp)
  .add('CMS signed attributes, hand writer', handAttributes).add('CMS signed attributes, asn1js', libraryAttributes)
await bench.run()
const hz = (name: string) => (bench.tasks.find((task) => task.name === name)!.result as unknown as { throughput: { mean: number } }).throughput.mean
for (const row of ['OCSP response', 'CMS signed attributes']) {
  const hand = hz(`${row}, hand writer`)
  const library = hz(`${row}, asn1js`)
  console.log(`${row}: hand writer ${Math.round(hand)} ops/s, asn1js ${Math.round(library)} ops/s: asn1js costs ${(hand / library).toFixed(1)}x`)
}
