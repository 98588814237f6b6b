// The verifier reads what a document's signatures share once (certificates, a CRL's signature
// check, the parse of every revision) and must still judge each signature on its own: its own
// byte range, its own chain and its own entry in a CRL. One session document signed in turn by
// the application (certification), Alice and Carol under the application's CA, and Bob under
// another CA; Carol is revoked in the CA's CRL. A hex digit of the padding after Bob's
// signature value is changed: that gap is outside Bob's byte range and inside Carol's.
import t from 'tap'
import { createCertificateAuthority, issueUserCertificate, readP12, type CertificateAuthority } from '../../../../plugins/signature/certificates/index.ts'
import { freezeDocument, signField } from '../../../../plugins/signature/pdf/index.ts'
import { buildCrl } from '../../../../plugins/signature/pki/build-crl.ts'
import { certificateFields, pemToDer } from '../../../../plugins/signature/pki/certificate-fields.ts'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import type { SignatureReport } from '../../../../plugins/signature/verify/verification-report.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'

const ca = createCertificateAuthority({ commonName: 'Shared Test CA' })
const other = createCertificateAuthority({ commonName: 'Other Test CA' })
function person(authority: CertificateAuthority, name: string) {
  const issued = issueUserCertificate(authority, { name, email: `${name.toLowerCase()}@example.org` })
  return { signer: readP12(issued.p12, issued.password), serial: issued.serialNumber }
}
const crl = (authority: CertificateAuthority, revoked: Array<{ serial: string; revokedAt: Date }>) =>
  buildCrl(revoked, { privateKey: authority.privateKey, certificate: certificateFields(pemToDer(authority.certificatePem)) }, new Date())

const alice = person(ca, 'Alice')
const bob = person(other, 'Bob')
const carol = person(ca, 'Carol')
const slots = ['alice', 'bob', 'carol'].map((name, i) => ({ name, page: 1, x: 40 + i * 180, y: 60, width: 160, height: 80 }))
let signed = await freezeDocument(await makePdf({ pages: 2 }), { fields: slots, signer: person(ca, 'Application').signer })
for (const [slot, who] of [[slots[0]!, alice], [slots[1]!, bob], [slots[2]!, carol]] as const) {
  signed = await signField(signed, { fieldName: slot.name, image: makeStampPng(), signer: who.signer })
}
const pdf = Buffer.from(signed)
const caCrlRevokingCarol = crl(ca, [{ serial: carol.serial, revokedAt: new Date(Date.now() - 60_000) }])

const byField = (signatures: SignatureReport[]) => Object.fromEntries(signatures.map((s) => [s.field ?? '(none)', s]))

t.test('each signature has its own chain and its own CRL entry', async (t) => {
  const report = await verifyPdf(pdf, { trustAnchors: [ca.certificatePem], issuerCrls: [caCrlRevokingCarol] })
  t.equal(report.signatures.length, 4)
  const s = byField(report.signatures)
  t.equal(s.alice!.integrity, 'valid')
  t.equal(s.alice!.trust, 'trusted')
  t.equal(s.alice!.revocation, 'good', 'the CRL that revokes Carol says Alice is good')
  t.equal(s.alice!.verdict, 'valid')
  t.equal(s.bob!.integrity, 'valid')
  t.equal(s.bob!.trust, 'untrusted', 'Bob\'s CA is no anchor, though the CA certificate every other signature carries is')
  t.equal(s.bob!.revocation, 'unknown', 'the CA\'s CRL, checked for the others, says nothing about Bob')
  t.equal(s.carol!.integrity, 'valid')
  t.equal(s.carol!.trust, 'trusted')
  t.equal(s.carol!.revocation, 'revoked')
  t.equal(s.carol!.verdict, 'invalid')
  t.equal(report.signatures.find((r) => r.kind === 'certification')!.revocation, 'good')
})

t.test('the same document with other settings: nothing carried over from the last verification', async (t) => {
  // Both CAs trusted, only the first CA's CRL (revoking nobody) at hand.
  const report = await verifyPdf(pdf, { trustAnchors: [ca.certificatePem, other.certificatePem], issuerCrls: [crl(ca, [])] })
  const s = byField(report.signatures)
  t.equal(s.bob!.trust, 'trusted')
  t.equal(s.bob!.revocation, 'unknown', 'a CRL that verified with the CA\'s key for Alice and Carol is still not Bob\'s CA\'s')
  t.equal(s.bob!.verdict, 'warning')
  t.equal(s.alice!.revocation, 'good')
  t.equal(s.carol!.revocation, 'good', 'this CRL revokes nobody')
  t.equal(s.carol!.verdict, 'valid')
  t.equal(report.verdict, 'warning')
})

t.test('a change in the gap of one signature breaks only the signatures whose byte range covers it', async (t) => {
  const first = byField((await verifyPdf(pdf, { trustAnchors: [ca.certificatePem] })).signatures)
  const [, gapStart, gapEnd] = await byteRangeOf(pdf, first.bob!.revision)
  // The last hex digit of Bob's /Contents: padding after the DER, outside Bob's range, inside Carol's.
  const at = gapEnd - 2
  t.equal(String.fromCharCode(pdf[at]!), '0', 'a padding digit')
  t.ok(at > gapStart)
  const changed = Buffer.from(pdf)
  changed[at] = 0x31 // '1'
  const s = byField((await verifyPdf(changed, { trustAnchors: [ca.certificatePem, other.certificatePem] })).signatures)
  t.equal(s.alice!.integrity, 'valid')
  t.equal(s.bob!.integrity, 'valid', 'Bob did not sign his own signature value')
  t.equal(s.carol!.integrity, 'invalid', 'Carol signed Bob\'s signature value as it was')
  t.match(s.carol!.problems.join(' '), /changed after it was signed/)
})

/** The /ByteRange of the signature that ends revision `revision` (the n-th /ByteRange in the file, n = revision). */
async function byteRangeOf(bytes: Buffer, revision: number): Promise<[number, number, number, number]> {
  const ranges = [...bytes.toString('latin1').matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map((m) => m.slice(1, 5).map(Number))
  const [a, b, c, d] = ranges[revision - 1]!
  return [a!, b!, c!, d!]
}
