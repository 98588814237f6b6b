// A signature value is DER from anyone. Nesting it 10,000 levels deep (constructed OCTET STRINGs
// in the signed content, SEQUENCEs in a certificate, in a timestamp token) must not reach a
// recursion without a limit: the verifier names the nesting and answers FORMAT_FAILURE, the same
// stable finding as any unreadable signature, instead of a stack overflow or a hang.
import t from 'tap'
import { contextConstructed, integer, nullValue, octetString, oid, sequence, setOf, tlv } from '../../../../plugins/signature/pdf/der.ts'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { signWithPlaceholder } from '../../../fixtures/pdf/hand-made-signature.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'

const DEPTH = 10_000

/** DEPTH elements of `tag` around `innermost`, headers written once (tlv() per level copies 400 MB). */
function nested(tag: number, innermost: Buffer): Buffer {
  const headers: Buffer[] = []
  let length = innermost.length
  for (let level = 0; level < DEPTH; level++) {
    const header = length < 0x80 ? Buffer.from([tag, length]) : length < 0x100 ? Buffer.from([tag, 0x81, length]) : Buffer.from([tag, 0x82, length >> 8, length & 0xff])
    headers.push(header)
    length += header.length
  }
  return Buffer.concat([...headers.reverse(), innermost])
}

/** A SignedData of the usual shape with `encapsulated` as its encapContentInfo and `certificates` in [0]. */
function signedData(encapsulated: Buffer, certificates: Buffer[] = []): Buffer {
  const sha256 = sequence(oid('2.16.840.1.101.3.4.2.1'), nullValue())
  const signerInfo = sequence(integer(1), sequence(sequence(), integer(1)), sha256, sequence(oid('1.2.840.113549.1.1.1'), nullValue()), octetString(Buffer.alloc(256, 1)))
  return sequence(oid('1.2.840.113549.1.7.2'), contextConstructed(0, sequence(
    integer(1), setOf(sha256), encapsulated, ...(certificates.length ? [contextConstructed(0, ...certificates)] : []), setOf(signerInfo),
  )))
}

const cases: Array<[string, Buffer, string]> = [
  ['constructed OCTET STRINGs as the signed content', signedData(sequence(oid('1.2.840.113549.1.7.1'), contextConstructed(0, nested(0x24, octetString(Buffer.from('x')))))), 'adbe.pkcs7.detached'],
  ['SEQUENCEs as a certificate', signedData(sequence(oid('1.2.840.113549.1.7.1')), [nested(0x30, nullValue())]), 'ETSI.CAdES.detached'],
  ['constructed OCTET STRINGs as a document timestamp\'s TSTInfo', signedData(sequence(oid('1.2.840.113549.1.9.16.1.4'), contextConstructed(0, nested(0x24, octetString(Buffer.from('x')))))), 'ETSI.RFC3161'],
]

for (const [what, cms, subFilter] of cases) {
  t.test(`${DEPTH} nested ${what}: FORMAT_FAILURE naming the nesting`, async (t) => {
    const pdf = await signWithPlaceholder(await makePdf(), async () => cms, subFilter, cms.length + 16)
    const report = await verifyPdf(pdf, { trustAnchors: [] })
    const [signature] = report.signatures
    t.ok(signature, 'the signature is listed')
    t.equal(signature!.integrity, 'invalid')
    t.equal(report.verdict, 'invalid')
    t.match(signature!.validation, { indication: 'TOTAL-FAILED', subIndication: 'FORMAT_FAILURE' })
    t.match(signature!.problems.join(' | '), /nested too deep/)
    t.notMatch(signature!.problems.join(' | '), /call stack/i)
  })
}
