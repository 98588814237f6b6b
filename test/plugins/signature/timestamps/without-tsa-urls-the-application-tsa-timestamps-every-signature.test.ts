// Issue 18, items 2 and 3: with no SIGNATURE_TSA_URLS the application's own TSA timestamps every
// signature (B-T by default, asked in the PDF worker without a network round trip). openssl
// checks each token against the CA the app publishes at /pki/ca.pem; SIGNATURE_TIMESTAMPS=off
// (here: the parsed config) is the one way to B-B.
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import t from 'tap'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { opensslVerifyToken, opensslView, signatureCmses } from '../../../fixtures/pdf/cms-parts.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { parseSignatureConfig } from '../../../../plugins/signature/signature-config.ts'
import { timestampSourceOf } from '../../../../plugins/signature/signature-services.ts'
import { finalize, signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(180_000)

t.test('/api/sign and a whole session are timestamped by the application TSA', async (t) => {
  delete process.env.SIGNATURE_TSA_URLS
  const app = await buildTestApp(t)
  const caFile = path.join(tmpdir(), `app-ca-${process.pid}.pem`)
  await writeFile(caFile, (await app.inject({ url: '/pki/ca.pem' })).body)
  const staff = await signerWithSignature(app, DEMO.staff.email)
  const admin = await signerWithSignature(app, DEMO.admin.email)

  const signed = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie, 'x-csrf-token': staff.csrf },
    payload: { signature: staff.signature, pdf: Buffer.from(await makePdf()).toString('base64'), placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }] } })
  t.equal(signed.statusCode, 200, signed.body.slice(0, 200))

  const created = (await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin.cookie }, payload: { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'sequential' } })).json().data
  for (const [signer, slot] of [[admin, 'payroll'], [staff, 'employee']] as const) {
    const request = created.requests.find((r: { slot: string }) => r.slot === slot).id
    t.equal((await finalize(app, signer, 'payslip', { signature: signer.signature, request, placements: [] })).statusCode, 200)
  }
  const session = (await app.inject({ url: created.documentUrl ?? `/api/signing-sessions/${created.id}/document`, headers: { cookie: admin.cookie } })).rawPayload

  for (const [name, pdf, count] of [['/api/sign', signed.rawPayload, 1], ['the session (certification and two signers)', session, 3]] as const) {
    const cmses = signatureCmses(pdf)
    t.equal(cmses.length, count, `${name}: ${count} signatures`)
    for (const cms of cmses) {
      const view = await opensslView(cms)
      t.ok(view.token, `${name}: a signature-time-stamp-token`)
      t.match(await opensslVerifyToken(view.token!, view.signatureValue, caFile), /Verification: OK/, `${name}: openssl ts -verify against /pki/ca.pem`)
    }
    // pdfsig 22.12 cannot check the document timestamp (B-LTA) it lists; test/plugins/signature/ltv checks it with openssl.
    t.ok((await pdfsig(pdf)).signatures.filter((s) => !s.fieldName.startsWith('Document timestamp')).every((s) => s.validation === 'Signature is Valid.'), `${name}: pdfsig valid`)
  }
})

t.test('the source: the listed TSAs when set, else the application TSA; off means none', async (t) => {
  const authority = { keyPem: 'key', certificatesPem: ['tsa', 'ca'] }
  t.same(timestampSourceOf(parseSignatureConfig({}), authority), { urls: [], authority })
  t.same(timestampSourceOf(parseSignatureConfig({ timestamps: { tsa_urls: 'https://tsa.example/ts' } }), authority)?.urls, ['https://tsa.example/ts'])
  t.equal(timestampSourceOf(parseSignatureConfig({ timestamps: { enabled: 'off' } }), authority), null)
})
