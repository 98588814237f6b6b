// TRUST_ANCHORS: PEM files whose certificates the verifier trusts besides the app's CA (a file
// that cannot be read stops the boot, naming it); the public endpoint's per-address limit
// answers 429 with Retry-After.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { signDocument } from '../../../../plugins/signature/pdf/index.ts'
import { buildSignatureApp } from '../../../helpers/signature-app.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { testCertificateAuthority, testUserCertificate } from '../../../fixtures/pdf/test-certificates.ts'

const dir = await mkdtemp(path.join(tmpdir(), 'anchors-'))
t.teardown(() => rm(dir, { recursive: true, force: true }))
const anchorFile = path.join(dir, 'test-ca.pem')
await writeFile(anchorFile, testCertificateAuthority().certificatePem)
const pdf = await signDocument(await makePdf(), { stamps: [{ page: 1, x: 40, y: 60, width: 200, height: 80, image: makeStampPng() }], signer: testUserCertificate('Dana Anchor') })
const post = (app: Awaited<ReturnType<typeof buildSignatureApp>>) => app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: Buffer.from(pdf) })

t.test('a certificate from a CA named in TRUST_ANCHORS is trusted; without it, untrusted', async (t) => {
  const without = await buildSignatureApp(t)
  t.equal((await post(without)).json().signatures[0].trust, 'untrusted')
  const withAnchor = await buildSignatureApp(t, { config: { verify: { trust_anchors: `${anchorFile}` } } })
  const report = (await post(withAnchor)).json()
  t.equal(report.signatures[0].trust, 'trusted')
  // Trusted; what keeps it from "valid" is only that this certificate names no revocation service
  // and the file carries no answer (issue 35 item 7: unknown revocation is not "good").
  t.same(report.signatures[0].problems, ["The signer's certificate could not be checked for revocation: the document carries no answer and the certificate names no service to ask"])
  t.equal(report.verdict, 'warning')
})

t.test('a TRUST_ANCHORS file that does not exist stops the boot, naming it', async (t) => {
  await t.rejects(buildSignatureApp(t, { config: { verify: { trust_anchors: path.join(dir, 'missing.pem') } } }), /TRUST_ANCHORS: cannot read .*missing\.pem/)
})

t.test('past the per-address limit: 429 ERR_VERIFY_RATE_LIMITED with Retry-After', async (t) => {
  const app = await buildSignatureApp(t, { config: { verify: { rate_per_minute: 2 } } })
  t.equal((await post(app)).statusCode, 200)
  t.equal((await post(app)).statusCode, 200)
  const refused = await post(app)
  t.equal(refused.statusCode, 429)
  t.equal(refused.json().code, 'ERR_VERIFY_RATE_LIMITED')
  t.match(refused.headers['retry-after'], /^\d+$/)
})
