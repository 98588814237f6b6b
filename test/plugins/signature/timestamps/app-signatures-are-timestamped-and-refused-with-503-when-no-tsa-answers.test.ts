// Through the real app, with SIGNATURE_TSA_URLS naming a port where nothing listens and then an
// openssl TSA: /api/sign, a session's freeze, its signers and the certificate of completion are
// timestamped in the PDF workers (B-T); when no TSA gives a valid token each of them answers 503
// ERR_TIMESTAMP_UNAVAILABLE and writes nothing (no signature row, no file, the request still pending).
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import t, { type Test } from 'tap'
import { mupdfChangeHistory, pdfsig, qpdfCheck } from '../../../fixtures/pdf/checkers.ts'
import { opensslVerifyToken, opensslView, signatureCmses } from '../../../fixtures/pdf/cms-parts.ts'
import { makePdf } from '../../../fixtures/pdf/make-pdf.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { closedPortUrl, startOpensslTsa } from '../../../helpers/openssl-tsa.ts'

t.setTimeout(240_000)
const tsa = await startOpensslTsa()
t.teardown(() => tsa.close())
// config/signature.ts reads the environment when first imported: set it before the app is.
process.env.SIGNATURE_TSA_URLS = `${await closedPortUrl()},${tsa.url}`
const { buildTestApp, DEMO, login } = await import('../../../helpers/app.ts')
const { csrfFor } = await import('../../../helpers/pages.ts')

async function assertAllTimestamped(t: Test, pdf: Uint8Array, count: number) {
  const cmses = signatureCmses(pdf)
  t.equal(cmses.length, count)
  for (const cms of cmses) {
    const view = await opensslView(cms)
    t.ok(view.token, 'a signature-time-stamp-token')
    t.match(await opensslVerifyToken(view.token!, view.signatureValue, tsa.caFile), /Verification: OK/)
  }
  const report = await pdfsig(pdf)
  // pdfsig 22.12 cannot check the document timestamp (B-LTA) it lists; test/plugins/signature/ltv checks it with openssl.
  t.ok(report.signatures.filter((s) => !s.fieldName.startsWith('Document timestamp')).every((s) => s.validation === 'Signature is Valid.'), report.output)
  t.ok((await qpdfCheck(pdf)).clean)
}

t.test('single signatures, sessions and certificates: timestamped when a TSA answers, 503 with nothing written when none does', async (t) => {
  const app = await buildTestApp(t)
  const root = path.dirname(app.signature.disk.path('x'))
  const outputs = async () => (await readdir(root, { recursive: true }).catch(() => [] as string[])).filter((f) => /^(signed|sessions)\/.*\.pdf$/.test(String(f))).sort()
  const rows = async () => Number((await app.signature.database.db.selectFrom('digital_signatures' as never).select((eb: any) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow() as { n: number | string }).n)
  const image = `data:image/png;base64,${makeStampPng().toString('base64')}`
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  const manager = await login(app, DEMO.manager.email)
  const signatureOf: Record<string, string> = {}
  for (const [who, cookie] of [['staff', staff], ['manager', manager]] as const) {
    const res = await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie }, payload: { label: 'Mine', image, certificate: { mode: 'issue' } } })
    signatureOf[who] = res.json().data.uuid
  }
  const apiSign = () => app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff },
    payload: { signature: signatureOf.staff, pdf: Buffer.from(pdfBytes).toString('base64'), placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }], title: 'Leave' } })
  const pdfBytes = await makePdf()

  // No TSA gives a valid token: the first is down, the second answers HTTP 500.
  tsa.behaviour = 'http-500'
  const rowsBefore = await rows()
  const refused = await apiSign()
  t.equal(refused.statusCode, 503, refused.body)
  t.equal(refused.json().code, 'ERR_TIMESTAMP_UNAVAILABLE')
  t.equal(await rows(), rowsBefore, 'no signature row')
  t.same(await outputs(), [], 'no file')
  const noSession = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03' } })
  t.equal(noSession.statusCode, 503, 'the freeze (certification) is refused too')
  t.equal(noSession.json().code, 'ERR_TIMESTAMP_UNAVAILABLE')
  t.same((await app.inject({ url: '/api/signing-sessions', headers: { cookie: admin } })).json().data, [], 'no session')
  t.same(await outputs(), [], 'no file')

  // The second TSA answers: the first being down only costs a refused connection.
  tsa.behaviour = 'ok'
  const signed = await apiSign()
  t.equal(signed.statusCode, 200, signed.body.slice(0, 300))
  await assertAllTimestamped(t, signed.rawPayload, 1)

  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03' } })
  t.equal(created.statusCode, 201, created.body)
  const session = created.json().data
  const finalize = async (cookie: string, who: 'staff' | 'manager', requestId: string) => app.inject({
    method: 'POST', url: '/app/signature-templates/daily-time-record/signer/finalize',
    headers: { cookie, 'x-csrf-token': await csrfFor(app, cookie) }, payload: { signature: signatureOf[who], request: requestId, placements: [] },
  })
  tsa.behaviour = 'wrong-nonce'
  const filesBefore = await outputs()
  const rowsBeforeSigner = await rows()
  const signerRefused = await finalize(staff, 'staff', session.requests[0].id)
  t.equal(signerRefused.statusCode, 503, signerRefused.body)
  t.equal(signerRefused.json().code, 'ERR_TIMESTAMP_UNAVAILABLE')
  t.same(await outputs(), filesBefore, 'no new revision file')
  t.equal(await rows(), rowsBeforeSigner, 'no signature row')
  const detail = (await app.inject({ url: `/api/signing-sessions/${session.id}`, headers: { cookie: admin } })).json().data
  t.same(detail.requests.map((r: any) => r.status), ['pending', 'pending'], 'the request is still pending, not stuck in signing')

  tsa.behaviour = 'ok'
  t.equal((await finalize(staff, 'staff', session.requests[0].id)).statusCode, 200)
  t.equal((await finalize(manager, 'manager', session.requests[1].id)).statusCode, 200)
  const download = await app.inject({ url: `/api/signing-sessions/${session.id}/document`, headers: { cookie: staff } })
  await assertAllTimestamped(t, download.rawPayload, 3)
  t.equal((await mupdfChangeHistory(download.rawPayload)).verdict, 0, 'mupdf: no forbidden change')

  const certificate = await app.inject({ url: `/api/signing-sessions/${session.id}/certificate`, headers: { cookie: admin } })
  t.equal(certificate.statusCode, 200, certificate.body.slice(0, 200))
  await assertAllTimestamped(t, certificate.rawPayload, 1)
})
