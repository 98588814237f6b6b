// Revocation and expiry are judged at the time a timestamp proves the signature existed: revoked
// before it -> invalid, revoked after it -> still valid; an expired certificate is fine when a
// timestamp proves it signed while valid, a warning when nothing does, invalid when the timestamp
// proves it signed after expiry. Certificates, CRL and TSA are openssl's (test/fixtures/pdf/openssl-pki.ts).
import { HttpTimestampAuthority, P12Signer, PDF } from '@libpdf/core'
import t from 'tap'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { opensslPki } from '../../../fixtures/pdf/openssl-pki.ts'

const pki = await opensslPki(t)
const anchors = [pki.caPem]
const HOUR = 3_600_000

async function sign(p12: Buffer, options: { timestamp: boolean; crl?: Buffer }): Promise<Uint8Array> {
  const doc = await PDF.load(await makePdf())
  const { bytes } = await doc.sign({
    signer: await P12Signer.create(p12, 'pw'),
    level: options.crl ? 'B-LT' : options.timestamp ? 'B-T' : 'B-B',
    ...(options.timestamp ? { timestampAuthority: new HttpTimestampAuthority(pki.tsaUrl) } : {}),
    ...(options.crl ? { revocationProvider: { getCRL: async () => options.crl! } } : {}),
  })
  return bytes
}

t.test('revoked an hour before the timestamp: invalid, from the CRL in the DSS', async (t) => {
  const bob = await pki.issue('Bob Revoked Before')
  await pki.revoke(bob, new Date(Date.now() - HOUR))
  const pdf = await sign(bob.p12, { timestamp: true, crl: await pki.crl() })
  const [signature] = (await verifyPdf(pdf, { trustAnchors: anchors })).signatures
  t.match(signature, { integrity: 'valid', revocation: 'revoked', revocationSource: 'dss', verdict: 'invalid' })
  // ETSI EN 319 102-1 (issue 35 item 8): the timestamp is the proof of existence the revocation is judged against.
  t.match(signature!.validation, { indication: 'TOTAL-FAILED', subIndication: 'REVOKED', bestSignatureTime: signature!.timestamp!.time, chain: [{ revocation: { status: 'revoked', source: 'dss' } }] })
  t.ok(new Date(signature!.revokedAt!) < new Date(signature!.timestamp!.time!), 'revoked before the proven time')
  t.match(signature!.summary, /revoked at .* before the signature was made/)
})

t.test('revoked after the timestamp: the signature stands', async (t) => {
  const carol = await pki.issue('Carol Revoked After')
  // A revocation a minute after signing, written ahead into the CA's index (no waiting).
  await pki.revoke(carol, new Date(Date.now() + 60_000))
  const pdf = await sign(carol.p12, { timestamp: true, crl: await pki.crl() })
  const [signature] = (await verifyPdf(pdf, { trustAnchors: anchors })).signatures
  t.match(signature, { integrity: 'valid', revocation: 'revoked', revocationSource: 'dss', verdict: 'valid', level: 'B-LT' })
  t.match(signature!.validation, { indication: 'TOTAL-PASSED', subIndication: null, bestSignatureTime: signature!.timestamp!.time })
  t.ok(new Date(signature!.revokedAt!) > new Date(signature!.timestamp!.time!), 'revoked after the proven time')
  t.match(signature!.summary, /revoked later .* after the timestamp/)
})

t.test('an expired certificate: no timestamp -> warning; a timestamp after expiry -> invalid', async (t) => {
  const dave = await pki.issue('Dave Expired', { startdate: '200101000000Z', enddate: '210101000000Z' })
  const untimed = (await verifyPdf(await sign(dave.p12, { timestamp: false }), { trustAnchors: anchors })).signatures[0]!
  t.match(untimed, { integrity: 'valid', verdict: 'warning', timestamp: null, summary: /Dave Expired.*not valid now, and no timestamp proves/ })
  const late = (await verifyPdf(await sign(dave.p12, { timestamp: true }), { trustAnchors: anchors })).signatures[0]!
  t.match(late, { integrity: 'valid', verdict: 'invalid', timestamp: { valid: true }, problems: [/timestamp proves the signature was made at .* outside the validity/] })
  t.match(late!.validation, { indication: 'TOTAL-FAILED', subIndication: 'EXPIRED', chain: [{ validity: 'expired' }] })
  t.match(untimed!.validation, { indication: 'INDETERMINATE', subIndication: 'OUT_OF_BOUNDS_NO_POE', bestSignatureTime: null })
})

t.test('a certificate that expired after a timestamped signature: still valid; without the timestamp a warning', async (t) => {
  const eve = await pki.issue('Eve Expires Later')
  const later = new Date(Date.now() + 2 * 365 * 24 * HOUR).toISOString()
  const timed = (await verifyPdf(await sign(eve.p12, { timestamp: true }), { trustAnchors: anchors, now: later })).signatures[0]!
  t.match(timed, { integrity: 'valid', level: 'B-T', problems: [/could not be checked for revocation/] })
  t.notMatch(timed.problems.join(' '), /not valid now/, 'the timestamp proves it was signed while valid')
  const untimed = (await verifyPdf(await sign(eve.p12, { timestamp: false }), { trustAnchors: anchors, now: later })).signatures[0]!
  t.equal(untimed.verdict, 'warning')
  t.match(untimed.problems.join(' '), /not valid now, and no timestamp proves/)
})
