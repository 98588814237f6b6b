// End to end through the app: a PKCS#12 made by OpenSSL with an ECDSA P-256 key is accepted as
// a library signature (it was refused as "no private key the password opens") and /api/sign
// makes with it a PAdES signature that pdfsig calls valid, ECDSA with SHA-256.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { opensslView, signatureCmses } from '../../../fixtures/pdf/cms-parts.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { opensslEcP12 } from '../../../fixtures/pdf/test-certificates.ts'
import { STAMP_DATA_URL } from './helpers.ts'

t.test('upload an EC P-256 PKCS#12, then sign an uploaded PDF with it', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.staff.email)
  const { p12 } = await opensslEcP12('ec-pass', 'Staff EC')
  const created = await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie },
    payload: { label: 'EC', image: STAMP_DATA_URL, certificate: { mode: 'upload', p12: p12.toString('base64'), password: 'ec-pass' } } })
  t.equal(created.statusCode, 201, created.body)
  const signed = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie },
    payload: { signature: created.json().data.uuid, pdf: Buffer.from(await makePdf()).toString('base64'), placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }] } })
  t.equal(signed.statusCode, 200, signed.body.slice(0, 300))
  const report = await pdfsig(signed.rawPayload)
  t.equal(report.signatures[0]?.validation, 'Signature is Valid.', report.output)
  t.equal(report.signatures[0]?.commonName, 'Staff EC')
  t.match(report.output, /Signature Type: ETSI\.CAdES\.detached/)
  const view = await opensslView(signatureCmses(signed.rawPayload)[0]!)
  t.match(view.printed, /algorithm: ecdsa-with-SHA256/)
})
