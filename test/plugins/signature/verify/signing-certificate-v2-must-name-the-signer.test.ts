// ESS signing-certificate-v2 binds the signer's certificate into the signed attributes (PAdES
// B-B): a CAdES signature whose attribute names another certificate is not intact, even though
// its digest and signature value verify; one naming the signer is B-B. The CMS is built here
// from the DER primitives, the covering placeholder by pdf-lib (hand-made-signature.ts).
import { createHash, sign } from 'node:crypto'
import t from 'tap'
import { readP12 } from '../../../../plugins/signature/certificates/index.ts'
import { contextConstructed, integer, nullValue, octetString, oid, sequence, setOf } from '../../../../plugins/signature/pdf/der.ts'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { signWithPlaceholder } from '../../../fixtures/pdf/hand-made-signature.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { testCertificateAuthority, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const signer = (() => { const c = testUserCertificate('Ida Ess'); return readP12(c.p12, c.password) })()
const other = (() => { const c = testUserCertificate('Someone Else'); return readP12(c.p12, c.password) })()

/** A CAdES detached CMS whose signing-certificate-v2 hashes `named`. */
function cades(covered: Buffer, named: Buffer): Buffer {
  const certificate = signer.certificates[0]!
  const sha256 = sequence(oid('2.16.840.1.101.3.4.2.1'), nullValue())
  const attributes = setOf(
    sequence(oid('1.2.840.113549.1.9.3'), setOf(oid('1.2.840.113549.1.7.1'))),
    sequence(oid('1.2.840.113549.1.9.4'), setOf(octetString(createHash('sha256').update(covered).digest()))),
    // SigningCertificateV2 { certs SEQUENCE OF ESSCertIDv2 { certHash } } (hashAlgorithm defaults to SHA-256)
    sequence(oid('1.2.840.113549.1.9.16.2.47'), setOf(sequence(sequence(sequence(octetString(createHash('sha256').update(named).digest())))))),
  )
  const signerInfo = sequence(
    integer(1),
    issuerAndSerial(certificate),
    sha256,
    Buffer.concat([Buffer.from([0xa0]), attributes.subarray(1)]),
    sequence(oid('1.2.840.113549.1.1.1'), nullValue()),
    octetString(sign('sha256', attributes, signer.privateKey)),
  )
  return sequence(oid('1.2.840.113549.1.7.2'), contextConstructed(0, sequence(integer(1), setOf(sha256), sequence(oid('1.2.840.113549.1.7.1')), contextConstructed(0, certificate), setOf(signerInfo))))
}

/** issuerAndSerialNumber from the certificate's own bytes. */
function issuerAndSerial(certificate: Buffer): Buffer {
  // TBSCertificate: [0] version, serial, signature, issuer, ...
  const read = (at: number) => {
    let length = certificate[at + 1]!
    let start = at + 2
    if (length & 0x80) { const n = length & 0x7f; length = certificate.readUIntBE(start, n); start += n }
    return { at, start, end: start + length }
  }
  const tbs = read(read(0).start)
  const version = read(tbs.start)
  const serial = read(version.end)
  const algorithm = read(serial.end)
  const issuer = read(algorithm.end)
  return sequence(certificate.subarray(issuer.at, issuer.end), certificate.subarray(serial.at, serial.end))
}

t.test('signing-certificate-v2 naming the signer: intact, B-B; naming another certificate: not intact', async (t) => {
  const anchors = [testCertificateAuthority().certificatePem]
  const good = await signWithPlaceholder(await makePdf(), async (covered) => cades(covered, signer.certificates[0]!), 'ETSI.CAdES.detached')
  const [ok] = (await verifyPdf(good, { trustAnchors: anchors })).signatures
  t.match(ok, { integrity: 'valid', subFilter: 'ETSI.CAdES.detached', level: 'B-B', trust: 'trusted' })
  t.ok((await pdfsig(good)).signatures[0]!.valid, 'pdfsig agrees the bytes are intact')

  const wrong = await signWithPlaceholder(await makePdf(), async (covered) => cades(covered, other.certificates[0]!), 'ETSI.CAdES.detached')
  const [bad] = (await verifyPdf(wrong, { trustAnchors: anchors })).signatures
  t.match(bad, { integrity: 'invalid', level: null, verdict: 'invalid', problems: [/signing-certificate attribute names a different certificate/] })
})
