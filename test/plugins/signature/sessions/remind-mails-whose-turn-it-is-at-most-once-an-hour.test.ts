// POST /api/signing-sessions/:id/remind: the creator (or signing-sessions:cancel) reminds; a
// reminder mail goes to each signer whose turn it is, through a real SMTP server; a second
// reminder within the hour is 429 ERR_SESSION_REMIND_TOO_SOON with Retry-After and sends nothing;
// a signer who did not create the session may not remind; an ended session cannot be reminded.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { startSmtpPeer } from '../../../helpers/delivery-peers.ts'

t.setTimeout(120_000)

t.test('reminders go to whose turn it is, at most once an hour', async (t) => {
  const smtp = await startSmtpPeer(t)
  const app = await buildTestApp(t, { env: { SMTP_URL: smtp.url } })
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'payslip', signable: 'payslip-staff-2026-03', mode: 'sequential' } })
  t.equal(created.statusCode, 201, created.body)
  const session = created.json().data
  await smtp.waitFor(1)
  const remind = (cookie: string) => app.inject({ method: 'POST', url: `/api/signing-sessions/${session.id}/remind`, headers: { cookie } })

  const byStaff = await remind(staff)
  t.same([byStaff.statusCode, byStaff.json().code], [403, 'ERR_ACCESS_DENIED'], 'a signer who did not start it may not remind')

  const first = await remind(admin)
  t.equal(first.statusCode, 200, first.body)
  t.ok(first.json().data.events.some((e: any) => e.event === 'reminded'), 'the reminder is in the audit trail')
  const [, reminder] = await smtp.waitFor(2)
  t.same(reminder!.to, [DEMO.admin.email], 'only the payroll officer: it is not yet the employee\'s turn')
  t.match(reminder!.subject, 'Reminder: please sign')

  const again = await remind(admin)
  t.same([again.statusCode, again.json().code], [429, 'ERR_SESSION_REMIND_TOO_SOON'])
  t.ok(Number(again.headers['retry-after']) > 3500, `Retry-After about an hour (${again.headers['retry-after']} s)`)
  // Issue 39 item 11: it read "reminded at 2026-11-27T07:03:24.519Z; again in 3599 s".
  t.match(again.json().message, /^The signers were reminded less than a minute ago; you can remind them again in (59|60) minutes$/, 'said in words')
  t.notMatch(again.json().message, /\d{4}-\d\d-\d\dT|\d s$/, 'no ISO instant, no seconds')

  // An hour later (the stored time moved back, as the clock would have moved on).
  await app.signature.database.db.updateTable('signing_sessions').set({ reminded_at: new Date(Date.now() - 3_601_000).toISOString() }).where('id', '=', session.id).execute()
  t.equal((await remind(admin)).statusCode, 200, 'allowed again after the hour')
  await smtp.waitFor(3)

  t.equal((await app.inject({ method: 'POST', url: `/api/signing-sessions/${session.id}/cancel`, headers: { cookie: admin } })).statusCode, 200)
  const ended = await remind(admin)
  t.same([ended.statusCode, ended.json().code], [409, 'ERR_SESSION_CLOSED'])
  await app.signature.outbox.dispatcher.runOnce()
  t.same(smtp.messages.map((m) => m.subject.split(':')[0]), ['Please sign', 'Reminder', 'Reminder', 'Cancelled'], 'no mail for the refused reminders')
})
