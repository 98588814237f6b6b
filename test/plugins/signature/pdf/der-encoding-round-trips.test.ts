// The hand-written DER used for the CMS: lengths in every encoding form and OIDs, read back by
// the reader every parser of outside input goes through (read-der.ts).
import { X509Certificate } from 'node:crypto'
import fc from 'fast-check'
import t from 'tap'
import { oid, setOf, time, tlv } from '../../../../plugins/signature/pdf/der.ts'
import { kids, parseNode, parseRoot } from '../../../../plugins/signature/pdf/read-der.ts'

t.test('a value of any length reads back with the same tag and content', async (t) => {
  fc.assert(
    // OCTET STRING and context-specific primitives: the tags whose content may be any bytes.
    fc.property(fc.integer({ min: 0, max: 70_000 }), fc.constantFrom(0x04, ...Array.from({ length: 0x1e }, (_, n) => 0x80 + n)), (length, tag) => {
      const content = Buffer.alloc(length, 0xab)
      const encoded = tlv(tag, content)
      const read = parseNode(encoded)
      return read.tag === tag && read.end === encoded.length && read.end - read.contentStart === length
    }),
  )
  t.pass('round trip held')
})

t.test('OIDs encode as OpenSSL-known bytes (sha256, rsaEncryption, a large arc)', async (t) => {
  t.equal(oid('2.16.840.1.101.3.4.2.1').toString('hex'), '0609608648016503040201')
  t.equal(oid('1.2.840.113549.1.1.1').toString('hex'), '06092a864886f70d010101')
  t.equal(oid('1.3.6.1.4.1.311.10.3.12').toString('hex'), '060a2b0601040182370a030c')
})

t.test('SET OF is sorted and readable element by element', async (t) => {
  const set = setOf(tlv(0x04, Buffer.from([3])), tlv(0x04, Buffer.from([1])), tlv(0x04, Buffer.from([2])))
  const items = kids(parseNode(set)).map((c) => set[c.contentStart])
  t.same(items, [1, 2, 3])
})

t.test('signing times: UTCTime until 2049, GeneralizedTime after', async (t) => {
  t.equal(time(new Date(Date.UTC(2026, 10, 22, 3, 4, 5))).toString('latin1', 2), '261122030405Z')
  t.equal(time(new Date(Date.UTC(2026, 10, 22)))[0], 0x17)
  t.equal(time(new Date(Date.UTC(2050, 0, 1)))[0], 0x18)
  t.equal(time(new Date(Date.UTC(2050, 0, 1))).toString('latin1', 2), '20500101000000Z')
})

t.test('the reader walks a real certificate and finds the serial node:crypto reports', async (t) => {
  const { testUserCertificate } = await import('../../../fixtures/pdf/test-certificates.ts')
  const { readP12 } = await import('../../../../plugins/signature/certificates/index.ts')
  const issued = testUserCertificate('Der Reader')
  const [der] = readP12(issued.p12, issued.password).certificates
  const cert = parseNode(der!)
  t.equal(cert.end, der!.length)
  const [tbs, algorithm, signature] = kids(cert)
  t.equal(tbs?.tag, 0x30)
  t.equal(algorithm?.tag, 0x30)
  t.equal(signature?.tag, 0x03, 'BIT STRING signature')
  const serial = kids(tbs!)[1]!
  t.equal(der!.subarray(serial.contentStart, serial.end).toString('hex').toUpperCase().replace(/^0+/, ''), new X509Certificate(der!).serialNumber.replace(/^0+/, ''))
})

t.test('an OID arc beyond 2^53 (a 2.25 UUID arc) encodes as openssl encodes it', async (t) => {
  // `openssl asn1parse -genstr OID:2.25.46072830473049991776028320440527017806`
  t.equal(oid('2.25.46072830473049991776028320440527017806').toString('hex'), '061369c5a9a6fb81c8eaab838195f5c0e997fbae4e')
})

t.test('DER from a stranger: a cut header or length, BER indefinite length, a child past its parent all throw', async (t) => {
  const bad: Array<[string, Buffer]> = [
    ['a lone tag byte', Buffer.from([0x30])],
    ['length bytes missing', Buffer.from([0x30, 0x82, 0x01])],
    ['indefinite length', Buffer.from([0x30, 0x80, 0x00, 0x00])],
    ['a five-byte length', Buffer.from([0x30, 0x85, 0, 0, 0, 0, 1, 0])],
    ['content past the end', Buffer.from([0x30, 0x05, 0x02, 0x01])],
  ]
  for (const [what, der] of bad) t.throws(() => parseRoot(der, { der: true }), what)
  // The outer value is whole, but its child claims more than the parent holds.
  const overreach = Buffer.from([0x30, 0x04, 0x04, 0x05, 0x00, 0x00, 0xff, 0xff, 0xff])
  t.throws(() => kids(parseNode(overreach)), 'a child running past its parent')
  // A parent whose last child is cut inside its header; the bytes after the parent must not complete it.
  const cut = Buffer.from([0x30, 0x04, 0x02, 0x01, 0x05, 0x02, 0x01, 0x07])
  t.throws(() => kids(parseNode(cut)), 'a header cut by the parent end')
})
