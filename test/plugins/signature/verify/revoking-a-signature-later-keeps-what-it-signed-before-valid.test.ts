// Issues 18 and 19 together: a certificate from the application's CA is checked against the CA's
// own register (its current CRL, made in-process). Before a revoke the report says "good"; after
// it, "revoked" with the time, and the signature made before stays valid because its timestamp
// (from the application TSA) proves it was made before the revocation.
import t from 'tap'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(120_000)

t.test('revocation from the issuer: good, then revoked after the timestamp, and the signature stays valid', async (t) => {
  delete process.env.SIGNATURE_TSA_URLS
  const app = await buildTestApp(t)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const signed = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie, 'x-csrf-token': staff.csrf },
    payload: { signature: staff.signature, pdf: Buffer.from(await makePdf()).toString('base64'), placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }] } })
  t.equal(signed.statusCode, 200)
  const verify = async () => (await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: signed.rawPayload })).json()

  const before = await verify()
  t.equal(before.verdict, 'valid', before.summary)
  // B-LTA (issue 18): the DSS holds the CA's answer from when the document was sealed.
  t.match(before.signatures[0], { revocation: 'good', revocationSource: 'dss', trust: 'trusted', level: 'B-LTA', timestamp: { valid: true } })

  // A CRL dates a revocation to the second (RFC 5280): one within the timestamp's own second cannot
  // be told apart from one before it, and the verifier rightly takes the worse case. So the revoke
  // waits for the next whole second of the clock (at most 1 s), the one wait in this test.
  const stamped = Date.parse(before.signatures[0].timestamp.time)
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (stamped % 1000) + (stamped - Date.now()) + 5)))
  const revoked = await app.inject({ method: 'DELETE', url: `/api/signatures/${staff.signature}`, headers: { cookie: staff.cookie, 'x-csrf-token': staff.csrf } })
  t.ok(revoked.statusCode < 300, `revoked (${revoked.statusCode})`)
  const after = await verify()
  // The register's news beats the DSS's older "good"; it was read in-process, not fetched online.
  t.match(after.signatures[0], { revocation: 'revoked', revocationSource: 'application-ca' })
  t.ok(Date.parse(after.signatures[0].revokedAt) >= Date.parse(after.signatures[0].timestamp.time), 'revoked after the timestamp')
  t.equal(after.signatures[0].verdict, 'valid', 'made before the revocation, proven by its timestamp: still valid')
})
