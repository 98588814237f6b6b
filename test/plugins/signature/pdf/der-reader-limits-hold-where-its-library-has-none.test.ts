// read-der.ts decodes with @lapo/asn1js, a decoder written for showing DER to people: it reads a
// high tag number into a BigInt one shift per byte (quadratic: 100 KB of tag took 3.7 s), tries to
// decode inside every OCTET and BIT STRING, takes an end-of-contents by its tag alone and has no
// depth limit. The reader adds those limits, and reads OIDs, times and BOOLEANs from the bytes.
import t from 'tap'
import { oid, octetString, sequence, tlv } from '../../../../plugins/signature/pdf/der.ts'
import { booleanOf, kids, oidOf, octets, parseNode, parseRoot, timeOf } from '../../../../plugins/signature/pdf/read-der.ts'

const hex = (text: string) => Buffer.from(text.replace(/ /g, ''), 'hex')

t.test('a tag number 200,000 bytes long is refused at once', async (t) => {
  const der = Buffer.concat([hex('1f'), Buffer.alloc(200_000, 0xff), hex('01 00')])
  const started = performance.now()
  t.throws(() => parseNode(der), /tag number too long/)
  t.ok(performance.now() - started < 1000, `refused in ${Math.round(performance.now() - started)} ms`)
  t.equal(parseRoot(hex('9f 81 00 01 07')).tag, 0x9f, 'a high tag number of two bytes reads')
})

t.test('an OCTET STRING that holds DER stays bytes; nesting inside strings is not a depth', async (t) => {
  const inner = sequence(oid('1.2.3'))
  const node = parseRoot(octetString(inner))
  t.throws(() => kids(node), /constructed/)
  t.same(octets(node), inner)
  let strings: Buffer = Buffer.from('x')
  for (let level = 0; level < 1000; level++) strings = octetString(strings)
  t.equal(parseRoot(strings).end, strings.length, '1,000 OCTET STRINGs inside each other: one value of bytes')
  const levels = (n: number) => { let der: Buffer = Buffer.from([0x05, 0x00]); for (let level = 1; level < n; level++) der = sequence(der); return der }
  t.throws(() => parseRoot(levels(65)), /nested too deep/, '65 levels')
  t.equal(parseRoot(levels(64)).end, levels(64).length, '64 levels read')
})

t.test('an indefinite length ends only at 00 00', async (t) => {
  t.same(kids(parseRoot(hex('30 80 02 01 05 00 00'))).map((n) => [n.tag, n.start, n.end]), [[0x02, 2, 5]])
  t.throws(() => parseRoot(hex('30 80 02 01 05 00 01 00')), /end-of-contents/)
  t.throws(() => parseRoot(hex('30 80 02 01 05')), /Malformed/)
  t.throws(() => parseRoot(hex('30 80 02 01 05 00 00'), { der: true }), /Indefinite length in DER/)
})

t.test('times: UTCTime years 50-99 are the 1900s, GeneralizedTime fractions and offsets, no guessing', async (t) => {
  const time = (tag: number, text: string) => timeOf(parseRoot(tlv(tag, Buffer.from(text, 'latin1')))).toISOString()
  t.equal(time(0x17, '491231235959Z'), '2049-12-31T23:59:59.000Z')
  t.equal(time(0x17, '500101000000Z'), '1950-01-01T00:00:00.000Z')
  t.equal(time(0x18, '20261127160000.25Z'), '2026-11-27T16:00:00.250Z')
  t.equal(time(0x18, '20261127160000+0130'), '2026-11-27T14:30:00.000Z')
  for (const [tag, text] of [[0x18, '20260431120000Z'], [0x18, '20261127160000'], [0x17, '2611271600Z'], [0x18, '20261127246000Z']] as const) {
    t.throws(() => time(tag, text), /Unreadable time/, text)
  }
})

t.test('OIDs and BOOLEANs are read from their bytes', async (t) => {
  t.equal(oidOf(parseRoot(oid('2.25.329800735698586629295641978511506172918'))), '2.25.329800735698586629295641978511506172918')
  t.equal(oidOf(parseRoot(oid('0.9.2342.19200300.100.1.1'))), '0.9.2342.19200300.100.1.1')
  t.throws(() => oidOf(parseRoot(hex('06 02 2a 86'))), /Malformed/, 'the last arc unfinished')
  t.throws(() => oidOf(parseRoot(Buffer.concat([hex('06 16 2a'), Buffer.alloc(20, 0x81), hex('01')]))), /Malformed/, 'an arc of 21 bytes')
  t.equal(booleanOf(parseRoot(hex('01 01 ff'))), true)
  t.equal(booleanOf(parseRoot(hex('01 01 00'))), false)
  t.throws(() => booleanOf(parseRoot(hex('01 02 00 ff'))), /BOOLEAN/)
})
