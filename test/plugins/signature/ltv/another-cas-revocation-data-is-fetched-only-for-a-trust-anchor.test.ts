// A signer whose certificate comes from another CA (an openssl CA with its own `openssl ocsp`
// responder and CRL distribution point): its revocation data goes into the DSS only when that CA
// is a trust anchor and going online is allowed; otherwise the gap is reported and nothing is
// fetched from addresses a stranger's certificate names. The app CA's TSA is answered in-process.
import t from 'tap'
import { createLongTermValidation } from '../../../../plugins/signature/ltv/long-term-validation.ts'
import { verifyPdf } from '../../../../plugins/signature/verify/verify-pdf.ts'
import { mupdfChangeHistory, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { dssStreams } from '../../../fixtures/pdf/pades-parts.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { opensslPki } from '../../../fixtures/pdf/openssl-pki.ts'
import { buildTestApp } from '../../../helpers/app.ts'

t.setTimeout(120_000)

t.test('the OCSP responder of a certificate from another CA', async (t) => {
  const pki = await opensslPki(t)
  const alice = await pki.issue('Alice Elsewhere')
  // openssl ocsp reads its index when it starts: after the issuing, or it answers "unknown".
  await pki.startOcspResponder()
  const app = await buildTestApp(t)
  const { pdf: pool, pki: appPki } = app.signature
  const signed = await pool.run('signDocument', await makePdf(), {
    stamps: [{ page: 1, x: 300, y: 200, width: 200, height: 80, image: makeStampPng() }], signer: { p12: alice.p12, password: 'pw' }, certify: { p: 2 },
  })
  const online = { timeoutMs: 5_000, maxBytes: 1 << 20 }

  const stranger = await createLongTermValidation({ pdf: pool, pki: appPki, online }).extend(signed)
  t.match(stranger.missing, [/CN=Alice Elsewhere.*chain does not end at a trust anchor/], 'not a trust anchor: reported, not asked')
  t.equal((await dssStreams(stranger.pdf)).ocsps.length, 1, 'only the app CA\'s answer (for its TSA)')

  const offline = await createLongTermValidation({ pdf: pool, pki: appPki, trustAnchors: [pki.caPem] }).extend(signed)
  t.match(offline.missing, [/CN=Alice Elsewhere.*going online is off/])

  const trusted = await createLongTermValidation({ pdf: pool, pki: appPki, trustAnchors: [pki.caPem], online }).extend(signed)
  t.same(trusted.missing, [], 'a trust anchor\'s responder answered')
  const dss = await dssStreams(trusted.pdf)
  // The app CA gives an OCSP answer and its CRL for its TSA; Alice's CA gives its CRL. (Its
  // `openssl ocsp -port` responder never answers node's fetch: the request waits for the 5 s
  // bound and the CRL distribution point is asked next, as it should be.)
  t.same([dss.ocsps.length, dss.crls.length], [1, 2], 'Alice\'s CA\'s CRL is in the DSS')
  t.equal((await mupdfChangeHistory(trusted.pdf)).verdict, 0)
  t.ok((await qpdfCheck(trusted.pdf)).clean)
  const report = await verifyPdf(trusted.pdf, { trustAnchors: [pki.caPem, appPki.caPem] })
  t.match(report.signatures[0], { signer: { subject: /CN=Alice Elsewhere/ }, revocation: 'good', revocationSource: 'dss', level: 'B-LTA', verdict: 'valid' })
  t.equal(report.document.level, 'B-LTA')
})
