// The signature plugin's metrics, contributed through core's hook (app.metrics) and read from
// /metrics as Prometheus would: signatures made (one-pass and in sessions), completed sessions,
// verifications by verdict, PDF worker tasks and their time, and the outbox (sent, pending, age of
// the oldest pending message).
import t from 'tap'
import { makePdf } from '../../fixtures/pdf/make-pdf.ts'
import { buildTestApp, DEMO } from '../../helpers/app.ts'
import { until } from '../../helpers/eventually.ts'
import { METRICS_TOKEN, scrape, valueOf } from '../../helpers/prometheus-text.ts'
import { finalize, signerWithSignature } from './signing/helpers.ts'

t.setTimeout(180_000)

t.test('signing, a session, a verification and the outbox each show in the metrics', async (t) => {
  const app = await buildTestApp(t, { env: { METRICS: 'on', METRICS_TOKEN } })
  const admin = await signerWithSignature(app, DEMO.admin.email, 'Ada')
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')

  const signed = await app.inject({ method: 'POST', url: '/api/sign', headers: { cookie: staff.cookie }, payload: { signature: staff.signature, pdf: Buffer.from(await makePdf()).toString('base64'), placements: [{ page: 1, x: 300, y: 200, width: 200, height: 80 }] } })
  t.equal(signed.statusCode, 200, 'signed through /api/sign')

  const created = (await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin.cookie }, payload: { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'sequential' } })).json().data
  for (const [signer, slot] of [[admin, 'payroll'], [staff, 'employee']] as const) {
    const request = created.requests.find((r: { slot: string }) => r.slot === slot).id
    t.equal((await finalize(app, signer, 'payslip', { signature: signer.signature, request, placements: [] })).statusCode, 200)
  }

  const verified = await app.inject({ method: 'POST', url: '/api/verify', headers: { 'content-type': 'application/pdf' }, payload: signed.rawPayload })
  t.equal(verified.statusCode, 200)
  const verdict = verified.json().verdict as string

  // A webhook row that waits for a retry ten minutes from now, written ten minutes ago.
  const repository = app.signature.outbox.repository
  const tenMinutesAgo = new Date(Date.now() - 600_000).toISOString()
  const [row] = await repository.insert(repository.db, [{ channel: 'webhook', topic: 'session.completed', target: 'wh_metrics_test', payload: {} }], tenMinutesAgo)
  await repository.db.updateTable('signature_outbox').set({ next_attempt_at: new Date(Date.now() + 600_000).toISOString() }).where('id', '=', row!.id).execute()

  // The session's mails go out after their commits (no SMTP here: .eml files).
  const mailSent = async () => (await repository.list({ channel: 'mail' })).filter((r) => r.status === 'sent').length
  await until(t, 'the session\'s mails are sent', async () => (await mailSent()) > 0 && (await repository.list({ channel: 'mail' })).every((r) => r.status !== 'pending'))

  const metrics = await scrape(app)
  t.equal(valueOf(metrics, 'signature_signatures_total', { mode: 'single' }), 1, 'one one-pass signature')
  t.equal(valueOf(metrics, 'signature_signatures_total', { mode: 'session' }), 2, 'two session signatures')
  t.equal(valueOf(metrics, 'signature_sessions_completed_total'), 1, 'one completed session')
  t.equal(valueOf(metrics, 'signature_verifications_total', { verdict }), 1, `one verification, verdict ${verdict}`)
  t.ok(valueOf(metrics, 'signature_worker_task_seconds_count', { pool: 'pdf', task: 'signDocument', outcome: 'ok' }) >= 1, 'the signing ran in the PDF pool, timed')
  t.ok(valueOf(metrics, 'signature_worker_task_seconds_sum', { pool: 'pdf', task: 'signDocument', outcome: 'ok' }) > 0)
  t.equal(valueOf(metrics, 'signature_worker_queue_depth', { pool: 'pdf' }), 0, 'nothing queued now')
  t.equal(valueOf(metrics, 'signature_outbox_sent_total', { kind: 'mail' }), await mailSent(), 'every mail sent is counted')
  t.equal(valueOf(metrics, 'signature_outbox_pending', { kind: 'webhook' }), 1, 'the waiting webhook')
  t.equal(valueOf(metrics, 'signature_outbox_pending', { kind: 'mail' }), 0)
  const age = valueOf(metrics, 'signature_outbox_oldest_pending_age_seconds', { kind: 'webhook' })
  t.ok(age >= 600 && age < 3600, `the oldest pending webhook is ten minutes old (${age} s)`)
  t.equal(valueOf(metrics, 'signature_outbox_oldest_pending_age_seconds', { kind: 'mail' }), 0, '0 when none waits')
})
