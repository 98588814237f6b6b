// Issue 35 item 8: beside its verdict, each signature carries the ETSI EN 319 102-1 result EU DSS
// and pyHanko give: an indication (TOTAL-PASSED / INDETERMINATE / TOTAL-FAILED) with a
// sub-indication, the validation time, and the chain with each certificate's validity and
// revocation status. One row per case the verifier tells apart, each document built here.
import { P12Signer, PDF } from '@libpdf/core'
import t from 'tap'
import { signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { parseSignedData } from '../../../../plugins/signature/verify/cms.ts'
import { verifyPdf, type VerifyPdfOptions } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { opensslChain, opensslDate, SIGNER_EXTENSIONS, type ChainCertificate } from '../../../fixtures/pdf/openssl-chain.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testCertificateAuthority, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'
import { verifyWithTestCa } from '../../../fixtures/pdf/verify-with-test-ca.ts'

const pki = await opensslChain(t, 'Indication Test Root CA')
const root = { trustAnchors: [pki.root.certPem] }

async function signedBy(signer: ChainCertificate, chain: ChainCertificate[] = [], signingTime?: Date): Promise<Uint8Array> {
  const doc = await PDF.load(await makePdf())
  const { bytes } = await doc.sign({ signer: await P12Signer.create(await pki.p12(signer, chain), 'pw'), level: 'B-B', ...(signingTime ? { signingTime } : {}) })
  return bytes
}

/** The same file with one byte of its signature value changed. */
function withSignatureValueChanged(pdf: Uint8Array): Buffer {
  const text = Buffer.from(pdf).toString('latin1')
  const start = text.indexOf('/Contents <') + '/Contents <'.length
  const hex = text.slice(start, text.indexOf('>', start))
  const value = parseSignedData(Buffer.from(hex.replace(/(00)+$/, ''), 'hex')).signerInfo.signature.toString('hex')
  const at = start + hex.toLowerCase().indexOf(value) + 20
  const copy = Buffer.from(pdf)
  copy[at] = copy[at] === 0x30 ? 0x31 : 0x30
  return copy
}

/** The same file with one signed byte changed: a byte of the binary comment after the header. */
function withSignedByteChanged(pdf: Uint8Array): Buffer {
  const copy = Buffer.from(pdf)
  const at = copy.indexOf('\n%', 5) + 2
  if (copy[at]! < 0x80) throw new Error('expected a binary comment after the header')
  copy[at] = copy[at]! ^ 1
  return copy
}

const appSigned = await signDocument(await makePdf(), { stamps: [{ page: 1, x: 40, y: 60, width: 200, height: 80, image: makeStampPng() }], signer: testUserCertificate('Vera Valid') })
const good = await pki.issue('Gina Good', pki.root, { extensions: SIGNER_EXTENSIONS })
const goodPdf = await signedBy(good)
const notCa = await pki.issue('Nora Not A CA', pki.root, { extensions: SIGNER_EXTENSIONS })
const belowNotCa = await pki.issue('Leo Below', notCa, { extensions: SIGNER_EXTENSIONS })
const revokedFirst = await pki.issue('Rex Revoked First', pki.root, { extensions: SIGNER_EXTENSIONS })
await pki.revoke(revokedFirst)
// Signed (claimed /M) after the revocation: the revocation came first.
const revokedFirstPdf = await signedBy(revokedFirst)
const revokedLater = await pki.issue('Rae Revoked Later', pki.root, { extensions: SIGNER_EXTENSIONS })
// Claims to have signed 10 minutes ago; revoked now; no timestamp proves either way.
const revokedLaterPdf = await signedBy(revokedLater, [], new Date(Date.now() - 600_000))
await pki.revoke(revokedLater)
const expired = await pki.issue('Ed Expired', pki.root, { extensions: SIGNER_EXTENSIONS, startdate: opensslDate(new Date(Date.now() - 3 * 86_400_000)), enddate: opensslDate(new Date(Date.now() - 86_400_000)) })
const expiredPdf = await signedBy(expired, [], new Date(Date.now() - 2 * 86_400_000))
const crl = await pki.crl()

const cases: Array<[string, () => ReturnType<typeof verifyPdf>, 'TOTAL-PASSED' | 'INDETERMINATE' | 'TOTAL-FAILED', string | null]> = [
  ['valid, signed by the app engine, verified as the server does (test CA and its CRL)', () => verifyWithTestCa(appSigned), 'TOTAL-PASSED', null],
  ['valid, openssl chain, the root\'s CRL says good', () => verifyPdf(goodPdf, { ...root, issuerCrls: [crl] }), 'TOTAL-PASSED', null],
  ['tampered: a signed byte changed', () => verifyWithTestCa(withSignedByteChanged(appSigned)), 'TOTAL-FAILED', 'HASH_FAILURE'],
  ['tampered: the signature value changed', () => verifyWithTestCa(withSignatureValueChanged(appSigned)), 'TOTAL-FAILED', 'SIG_CRYPTO_FAILURE'],
  ['untrusted: no path to a trust anchor', () => verifyPdf(goodPdf, { trustAnchors: [testCertificateAuthority().certificatePem], issuerCrls: [crl] }), 'INDETERMINATE', 'NO_CERTIFICATE_CHAIN_FOUND'],
  ['untrusted: the chain passes through a certificate that is not a CA', async () => verifyPdf(await signedBy(belowNotCa, [notCa]), { ...root, issuerCrls: [crl] }), 'INDETERMINATE', 'CHAIN_CONSTRAINTS_FAILURE'],
  ['revoked before the claimed signing time', () => verifyPdf(revokedFirstPdf, { ...root, issuerCrls: [crl] }), 'TOTAL-FAILED', 'REVOKED'],
  ['revoked, and nothing proves the signature came before', () => verifyPdf(revokedLaterPdf, { ...root, issuerCrls: [crl] }), 'INDETERMINATE', 'REVOKED_NO_POE'],
  ['revocation unknown: no answer in the file, none from the issuer, no service named', () => verifyPdf(goodPdf, root), 'INDETERMINATE', 'TRY_LATER'],
  ['expired, no timestamp proves it was used in time', () => verifyPdf(expiredPdf, { ...root, issuerCrls: [crl] }), 'INDETERMINATE', 'OUT_OF_BOUNDS_NO_POE'],
]

for (const [name, verify, indication, subIndication] of cases) {
  t.test(name, async (t) => {
    const report = await verify()
    const [signature] = report.signatures
    t.match(signature!.validation, { indication, subIndication }, signature!.problems.join(' | ') || 'no problems')
    // The verdict the report had before stays, and agrees.
    t.equal(signature!.verdict, { 'TOTAL-PASSED': 'valid', 'INDETERMINATE': 'warning', 'TOTAL-FAILED': 'invalid' }[indication])
  })
}

t.test('the validation time, and the chain with each certificate\'s validity and revocation status', async (t) => {
  const now = '2030-01-01T00:00:00.000Z'
  const fixed: VerifyPdfOptions = { ...root, issuerCrls: [crl], now }
  const before = Date.now()
  const { validation } = (await verifyPdf(goodPdf, { ...root, issuerCrls: [crl] })).signatures[0]!
  t.ok(Date.parse(validation.validationTime) >= before - 1000, 'validated now')
  t.equal(validation.bestSignatureTime, null, 'B-B: no timestamp proves a time')
  t.match(validation.chain, [
    { subject: /Gina Good/, issuer: /Indication Test Root CA/, validity: 'valid', revocation: { status: 'good', source: 'application-ca', revokedAt: null }, trustAnchor: false },
    { subject: /Indication Test Root CA/, validity: 'valid', revocation: { status: 'not-checked' }, trustAnchor: true },
  ])
  t.equal(validation.chain.length, 2)

  const later = (await verifyPdf(goodPdf, fixed)).signatures[0]!.validation
  t.equal(later.validationTime, now, 'the validation time is the one the verification was made for')
  t.equal(later.chain[0]!.validity, 'expired', 'in 2030 the 30-day certificate has expired')
  t.same([later.indication, later.subIndication], ['INDETERMINATE', 'OUT_OF_BOUNDS_NO_POE'])

  const revoked = (await verifyPdf(revokedFirstPdf, { ...root, issuerCrls: [crl] })).signatures[0]!.validation
  t.match(revoked.chain[0]!.revocation, { status: 'revoked', source: 'application-ca', revokedAt: /^\d{4}-/ })
  const unknown = (await verifyPdf(goodPdf, root)).signatures[0]!.validation
  t.match(unknown.chain[0]!.revocation, { status: 'unknown', source: null })
  const untrusted = (await verifyPdf(goodPdf, { trustAnchors: [] })).signatures[0]!.validation
  t.notOk(untrusted.chain.some((c) => c.trustAnchor), 'an untrusted chain has no trust anchor')
})
