// Issue 20, item 2: the sender's message and due date travel with the session — in the invitation
// a real SMTP server receives and on the session page — and once the due date passed, the session
// shows as expired, leaves the inbox, and finalize and remind refuse it. A due date in the past is
// refused next to its field, with nothing written.
import t from 'tap'
import { buildTestApp, DEMO } from '../../../helpers/app.ts'
import { startSmtpPeer } from '../../../helpers/delivery-peers.ts'
import { cookieOf, csrfFor, getPage } from '../../../helpers/pages.ts'
import { finalize, signerWithSignature } from '../signing/helpers.ts'

t.setTimeout(120_000)

t.test('message and due date: mailed, shown, and the due date ends signing', async (t) => {
  const smtp = await startSmtpPeer(t)
  const app = await buildTestApp(t, { env: { SMTP_URL: smtp.url } })
  const admin = await signerWithSignature(app, DEMO.admin.email, 'Ada')
  const staff = await signerWithSignature(app, DEMO.staff.email, 'Sam')
  const csrf = await csrfFor(app, admin.cookie)
  const send = (fields: Record<string, string>) => app.inject({
    method: 'POST', url: '/app/sessions', payload: new URLSearchParams(fields).toString(),
    headers: { cookie: admin.cookie, 'x-csrf-token': csrf, 'hx-request': 'true', 'content-type': 'application/x-www-form-urlencoded' },
  })
  const form = { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'parallel' }

  const past = await send({ ...form, dueAt: '2020-01-31' })
  t.equal(past.statusCode, 422)
  t.match(past.body, /id="send-due"[^>]*aria-invalid="true"[\s\S]*the due date must be in the future/)
  t.equal((await app.inject({ url: '/api/signing-sessions', headers: { cookie: admin.cookie } })).json().data.length, 0, 'nothing written')

  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
  const sent = await send({ ...form, message: 'Please check the hours of the 3rd <b>before</b> signing.', dueAt: tomorrow })
  t.equal(sent.statusCode, 200, sent.body)
  const id = (sent.headers['hx-redirect'] as string).split('/').at(-1)!
  const session = (await app.inject({ url: `/api/signing-sessions/${id}`, headers: { cookie: admin.cookie } })).json().data
  t.equal(session.message, 'Please check the hours of the 3rd <b>before</b> signing.')
  t.equal(session.dueAt, `${tomorrow}T23:59:59.999Z`, 'a day means its end, UTC')
  t.equal(session.expired, false)

  const invitations = await smtp.waitFor(2)
  const toStaff = invitations.find((m) => m.to[0] === DEMO.staff.email)!
  t.match(toStaff.text, 'The sender writes:')
  t.match(toStaff.text, 'Please check the hours of the 3rd <b>before</b> signing.')
  t.match(toStaff.text, `Please sign by ${tomorrow}.`)
  const page = await getPage(app, `/app/sessions/${id}`, cookieOf(sent) ?? admin.cookie)
  t.match(page.body, 'data-message>Please check the hours of the 3rd &lt;b&gt;before&lt;/b&gt; signing.</blockquote>', 'shown, escaped')
  // In UTC from the server, turned into the reader's own time by local-time.js.
  t.match(page.body, /data-due>due by <time datetime="[^"]+" data-local-time>\d{4}-\d{2}-\d{2} 23:59 UTC<\/time>/)

  // The due date passes (the stored instant moved back, as the clock would have moved on).
  await app.signature.database.db.updateTable('signing_sessions').set({ due_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', id).execute()
  const expired = await getPage(app, `/app/sessions/${id}`, admin.cookie)
  t.match(expired.body, 'data-session-status>expired<')
  t.match(expired.body, /data-signer-status="expired"/)
  t.notMatch(expired.body, 'data-remind', 'nothing to remind')
  const inbox = (await app.inject({ url: '/api/signing-sessions?mine=1', headers: { cookie: staff.cookie } })).json().data
  t.same(inbox, [], 'an expired request leaves the inbox')
  const request = session.requests.find((r: { slot: string }) => r.slot === 'employee').id
  const late = await finalize(app, staff, 'daily-time-record', { signature: staff.signature, request, placements: [] })
  t.same([late.statusCode, late.json().code], [409, 'ERR_SESSION_EXPIRED'], 'finalize refuses after the due date')
  const remind = await app.inject({ method: 'POST', url: `/api/signing-sessions/${id}/remind`, headers: { cookie: admin.cookie } })
  t.same([remind.statusCode, remind.json().code], [409, 'ERR_SESSION_EXPIRED'])
})
