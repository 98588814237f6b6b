// The sealing after the last signature needs a TSA. When none answers (an openssl TSA that goes
// down right after the last signature's own timestamp) the signature still stands: the session is
// completed with its B-T document, no file or 'sealed' event is added, the renewal API answers
// 503 ERR_TIMESTAMP_UNAVAILABLE and writes nothing. Once the TSA is back, the renewal seals the
// document; the TSA's certificate, from a CA nobody configured as trusted, is reported as missing
// revocation data rather than invented. The renewal runs as `npm run signatures:renew-timestamps`
// does, in a process of its own; --before-days decides what is due.
import { execFile } from 'node:child_process'
import { readdir } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'
import { pdfsig } from '../../../fixtures/pdf/checkers.ts'
import { makeStampPng } from '../../../fixtures/pdf/stamp-image.ts'
import { startOpensslTsa, type TsaBehaviour } from '../../../helpers/openssl-tsa.ts'

t.setTimeout(240_000)
const run = promisify(execFile)
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
const tsa = await startOpensslTsa()
t.teardown(() => tsa.close())
// config/signature.ts reads the environment when first imported: set it before the app is.
process.env.SIGNATURE_TSA_URLS = tsa.url
const { DEMO, login } = await import('../../../helpers/app.ts')
const { buildApp } = await import('../../../../host-app/app.ts')
const { isolatedEnv } = await import('../../../helpers/test-env.ts')
const { csrfFor } = await import('../../../helpers/pages.ts')

t.test('a TSA down at completion: B-T kept, renewal refused with nothing written, then sealed', async (t) => {
  // The app's own environment, so the renewal command below can run as a separate process on it.
  const { env, cleanup } = await isolatedEnv()
  const app = await buildApp({ env })
  t.teardown(async () => {
    await app.close()
    await cleanup()
  })
  await app.ready()
  const [admin, staff, manager] = await Promise.all([DEMO.admin, DEMO.staff, DEMO.manager].map((who) => login(app, who.email)))
  const image = `data:image/png;base64,${makeStampPng().toString('base64')}`
  const signatureOf: Record<string, string> = {}
  for (const [who, cookie] of [['staff', staff!], ['manager', manager!]] as const) {
    signatureOf[who] = (await app.inject({ method: 'POST', url: '/api/signatures', headers: { cookie }, payload: { label: 'Mine', image, certificate: { mode: 'issue' } } })).json().data.uuid
  }
  const session = (await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin! }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'sequential' } })).json().data
  const finalize = async (cookie: string, who: string, requestId: string) => app.inject({
    method: 'POST', url: '/app/signature-templates/daily-time-record/signer/finalize',
    headers: { cookie, 'x-csrf-token': await csrfFor(app, cookie) }, payload: { signature: signatureOf[who], request: requestId, placements: [] },
  })
  t.equal((await finalize(staff!, 'staff', session.requests[0].id)).statusCode, 200)

  // The last signature's own timestamp is the next query; everything after it fails.
  let down = true
  const lastSignatureQuery = tsa.queries.length + 1
  Object.defineProperty(tsa, 'behaviour', { get: (): TsaBehaviour => (down && tsa.queries.length > lastSignatureQuery ? 'http-500' : 'ok') })
  const last = await finalize(manager!, 'manager', session.requests[1].id)
  t.equal(last.statusCode, 200, `the signature stands: ${last.body}`)
  t.ok(tsa.queries.length > lastSignatureQuery, 'the sealing asked the TSA, which failed')

  const folder = app.signature.disk.path(`sessions/${session.id}`)
  const files = async () => (await readdir(folder)).sort()
  const before = await files()
  const detail = async () => (await app.inject({ url: `/api/signing-sessions/${session.id}`, headers: { cookie: admin! } })).json().data
  const completed = await detail()
  t.equal(completed.status, 'completed')
  t.equal(completed.events.at(-1).event, 'completed', 'no sealed event')
  const bt = (await app.inject({ url: `/api/signing-sessions/${session.id}/document`, headers: { cookie: staff! } })).rawPayload
  const checked = await pdfsig(bt)
  t.equal(checked.signatures.length, 3, 'the certification and both signatures, no document timestamp')
  t.ok(checked.signatures.every((s) => s.valid), checked.output)

  const refused = await app.inject({ method: 'POST', url: `/api/signing-sessions/${session.id}/renew-timestamp`, headers: { cookie: admin! } })
  t.equal(refused.statusCode, 503, refused.body)
  t.match(refused.json(), { code: 'ERR_TIMESTAMP_UNAVAILABLE', message: /document timestamp was not added/ })
  t.same(await files(), before, 'nothing written')
  t.equal((await detail()).events.length, completed.events.length, 'nothing in the trail')

  down = false
  // The cron command, as a process of its own on the same storage and database.
  const command = await run(process.execPath, ['--import', 'tsx', 'bin/renew-timestamps.ts', '--before-days', '90'], { cwd: ROOT, env: { ...process.env, ...env } as NodeJS.ProcessEnv })
  const renewals = command.stdout.trim().split('\n').map((line) => JSON.parse(line))
  t.match(renewals, [{ sessionId: session.id, outcome: 'sealed', expiresAt: null }], 'npm run signatures:renew-timestamps: never sealed, so due at once')
  const sealed = (await detail()).events.at(-1)
  t.equal(sealed.event, 'sealed')
  t.match(sealed.detail, /without revocation data for: .*CN=Test TSA/, 'the foreign TSA\'s missing revocation data is reported')
  const lta = (await app.inject({ url: `/api/signing-sessions/${session.id}/document`, headers: { cookie: staff! } })).rawPayload
  t.ok(lta.subarray(0, bt.length).equals(bt), 'the B-T document is a prefix of the sealed one')
  const ltaChecked = await pdfsig(lta)
  t.equal(ltaChecked.signatures.length, 4)
  // pdfsig 22.12 cannot check an ETSI.RFC3161 document timestamp: the three signatures it can.
  t.ok(ltaChecked.signatures.slice(0, 3).every((s) => s.valid), ltaChecked.output)
  const report = (await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: lta })).json()
  t.match(report.signatures.at(-1), { kind: 'document-timestamp', integrity: 'valid' }, 'the document timestamp verifies')
  t.equal((await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: bt })).json().document.level, 'B-T', 'before sealing: B-T')

  // The openssl TSA's certificate lives two days.
  t.match(await app.signature.sessions.renewDueTimestamps({ beforeDays: 1 }), [{ sessionId: session.id, outcome: 'not-due', expiresAt: /^\d{4}-/ }])
  t.match(await app.signature.sessions.renewDueTimestamps({ beforeDays: 90 }), [{ sessionId: session.id, outcome: 'sealed' }])
  t.equal((await files()).filter((f) => f.includes('-sealed-')).length, 2)
})
