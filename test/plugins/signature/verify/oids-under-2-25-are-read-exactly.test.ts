// An OID under 2.25 carries a UUID as one 128-bit arc (ITU-T X.667). Every reader of outside DER
// must give it back digit for digit: plain-number arithmetic rounds such an arc, so two different
// identifiers read the same and a report names an identifier nobody wrote. Here: the CMS reader
// of the verifier (content type, attribute types), the certificate extensions it judges, and the
// extension reader the signing side applies to uploaded certificates.
import { P12Signer, PDF } from '@libpdf/core'
import { X509Certificate } from 'node:crypto'
import t from 'tap'
import { certificateExtensions } from '../../../../plugins/signature/certificates/x509-fields.ts'
import { contextConstructed, integer, nullValue, octetString, oid, sequence, setOf } from '../../../../plugins/signature/pdf/der.ts'
import { parseSignedData } from '../../../../plugins/signature/verify/cms.ts'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { opensslChain, SIGNER_EXTENSIONS } from '../../../fixtures/pdf/openssl-chain.ts'

// Two UUID arcs 1 apart, both above 2^53 and 2^64.
const UUID_OID = '2.25.329800735698586629295641978511506172918'
const NEXT_OID = '2.25.329800735698586629295641978511506172919'

t.test('the CMS reader gives a 2.25 content type and attribute type exactly', async (t) => {
  const sha256 = sequence(oid('2.16.840.1.101.3.4.2.1'), nullValue())
  const attributes = setOf(sequence(oid(NEXT_OID), setOf(octetString(Buffer.from('x')))))
  const signerInfo = sequence(integer(1), sequence(sequence(), integer(1)), sha256, Buffer.concat([Buffer.from([0xa0]), attributes.subarray(1)]), sequence(oid('1.2.840.113549.1.1.1'), nullValue()), octetString(Buffer.alloc(8)))
  const cms = sequence(oid('1.2.840.113549.1.7.2'), contextConstructed(0, sequence(integer(1), setOf(sha256), sequence(oid(UUID_OID), contextConstructed(0, octetString(Buffer.from('content')))), setOf(signerInfo))))
  const read = parseSignedData(cms)
  t.equal(read.eContentType, UUID_OID)
  t.same(read.signerInfo.signedAttributes.map((a) => a.oid), [NEXT_OID])
})

t.test('a certificate extension under 2.25: the verifier names it exactly, the signing side reads it exactly', async (t) => {
  const pki = await opensslChain(t)
  const signer = await pki.issue('Signer With A UUID Extension', pki.root, { extensions: [...SIGNER_EXTENSIONS, `${UUID_OID}=critical,ASN1:UTF8String:must be understood`] })
  const der = Buffer.from(new X509Certificate(signer.certPem).raw)
  t.match(certificateExtensions(der).find((e) => e.oid.startsWith('2.25.')), { oid: UUID_OID, critical: true })

  const doc = await PDF.load(await makePdf())
  const { bytes } = await doc.sign({ signer: await P12Signer.create(await pki.p12(signer, []), 'pw'), level: 'B-B' })
  const [signature] = (await verifyPdf(bytes, { trustAnchors: [pki.root.certPem] })).signatures
  t.equal(signature!.trust, 'untrusted')
  t.match(signature!.problems.join(' | '), `critical extension this verifier does not understand (${UUID_OID})`)
})
