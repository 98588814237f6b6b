// Issue 20, item 3: a session has a page. Its creator sees each signer's status and time, a
// decline's reason, the audit trail as a timeline, the current PDF, and may cancel with a reason;
// a signer sees the same page without Cancel; someone with no part gets the 404 the API gives.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { cookieOf, csrfFor, getPage } from '../../../helpers/pages.ts'

t.setTimeout(120_000)

/** [request status on the page, label] per signer, in the page's order. */
function signerStatuses(html: string): Array<[string, string]> {
  return [...html.matchAll(/data-signer-status="([^"]+)">[\s\S]*?<span class="badge state-[^"]+">([^<]+)<\/span>/g)].map((m) => [m[1]!, m[2]!])
}

t.test('the creator follows a sequential session, the signer declines, the page shows who, when and why', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  const manager = await login(app, DEMO.manager.email)
  const created = (await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'sequential' } })).json().data
  const url = `/app/sessions/${created.id}`

  const first = await getPage(app, url, admin)
  t.equal(first.statusCode, 200)
  t.same(signerStatuses(first.body), [['their-turn', 'Their turn'], ['waiting', 'Waiting for earlier signers']], 'the employee first, the supervisor after')
  t.match(first.body, 'data-cancel-session', 'the creator may cancel')
  t.match(first.body, `href="/api/signing-sessions/${created.id}/document"`, 'the current PDF')
  t.match(first.body, /data-event="created"[\s\S]*?Ada Admin<\/strong>\s*started the session/)

  const asStaff = await getPage(app, url, staff)
  t.same(signerStatuses(asStaff.body), [['your-turn', 'Your turn'], ['waiting', 'Waiting for earlier signers']], 'the signer sees it is their turn')
  t.notMatch(asStaff.body, 'data-cancel-session', 'a signer may not cancel: no control')

  const staffRequest = created.requests.find((r: { slot: string }) => r.slot === 'employee').id
  const declined = await app.inject({ method: 'POST', url: `/api/signing-sessions/${created.id}/requests/${staffRequest}/decline`, headers: { cookie: staff }, payload: { reason: 'The hours of the 3rd are wrong' } })
  t.equal(declined.statusCode, 200)
  const after = await getPage(app, url, admin)
  t.match(after.body, 'data-session-status>declined<')
  t.same(signerStatuses(after.body), [['declined', 'Declined'], ['cancelled', 'Not signed (declined by another signer)']])
  t.match(after.body, /data-decline-reason>&#8220;The hours of the 3rd are wrong&#8221;/, 'the reason, escaped as text')
  t.match(after.body, /data-event="declined"[\s\S]*?Sam Staff<\/strong>\s*declined to sign as Employee<\/span>/)
  t.notMatch(after.body, 'data-cancel-session', 'nothing left to cancel')

  t.equal((await getPage(app, url, manager)).statusCode, 200, 'the supervisor is a signer of it')
  const list = await getPage(app, '/app/sessions?status=declined&part=started', admin)
  t.match(list.body, `href="/app/sessions/${created.id}" data-session-link`)
  t.notMatch((await getPage(app, '/app/sessions?status=active&part=started', admin)).body, created.id, 'filtered by status')
})

t.test('cancel with a reason from the page: only whoever may cancel, with the CSRF token; the trail keeps the reason', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const manager = await login(app, DEMO.manager.email)
  const created = (await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'parallel' } })).json().data
  const cancelUrl = `/app/sessions/${created.id}/cancel`
  const form = (cookie: string, csrf: string, reason: string) => app.inject({
    method: 'POST', url: cancelUrl, headers: { cookie, 'x-csrf-token': csrf, 'hx-request': 'true', 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ reason }).toString(),
  })

  const refused = await form(manager, await csrfFor(app, manager), 'Not mine')
  t.equal(refused.statusCode, 403, 'a signer who did not create it may not cancel it')
  t.equal((await app.inject({ url: `/api/signing-sessions/${created.id}`, headers: { cookie: admin } })).json().data.status, 'active', 'nothing changed')
  t.equal((await app.inject({ method: 'POST', url: cancelUrl, headers: { cookie: admin, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'reason=x' })).statusCode, 403, 'no CSRF token: refused')

  // Remind, from the page: once, then 429 until the interval passed (the API's rule).
  const remind = () => app.inject({ method: 'POST', url: `/app/sessions/${created.id}/remind`, headers: { cookie: admin, 'x-csrf-token': adminCsrf, 'hx-request': 'true' } })
  const adminCsrf = await csrfFor(app, admin)
  t.match((await getPage(app, `/app/sessions/${created.id}`, admin)).body, 'data-remind', 'the creator sees Remind')
  const reminded = await remind()
  t.equal(reminded.headers['hx-redirect'], `/app/sessions/${created.id}`)
  t.match((await getPage(app, `/app/sessions/${created.id}`, cookieOf(reminded) ?? admin)).body, /Reminder sent[\s\S]*data-event="reminded"[\s\S]*reminded the signers whose turn it is/)
  t.equal((await remind()).statusCode, 429, 'again at once: too soon')
  t.notMatch((await getPage(app, `/app/sessions/${created.id}`, manager)).body, 'data-remind', 'a signer does not')

  const cancelled = await form(admin, adminCsrf, 'Sent to the wrong month <b>')
  t.equal(cancelled.statusCode, 200)
  t.equal(cancelled.headers['hx-redirect'], `/app/sessions/${created.id}`)
  const detail = (await app.inject({ url: `/api/signing-sessions/${created.id}`, headers: { cookie: admin } })).json().data
  t.equal(detail.status, 'cancelled')
  t.equal(detail.events.at(-1).detail, 'Sent to the wrong month <b>', 'the reason is in the audit trail')
  // The notice rides in the session cookie the answer set, as a browser would carry it.
  const page = await getPage(app, `/app/sessions/${created.id}`, cookieOf(cancelled) ?? admin)
  t.match(page.body, 'The session is cancelled. Nobody can sign it any more.', 'the page says what happened')
  t.match(page.body, '&#8220;Sent to the wrong month &lt;b&gt;&#8221;', 'the reason, escaped')

  const staff = await login(app, DEMO.staff.email)
  t.equal((await getPage(app, `/app/sessions/${created.id}`, staff)).statusCode, 200, 'the employee signs in it: may see it')
  const other = await getPage(app, '/app/sessions/00000000-0000-4000-8000-000000000000', admin)
  t.equal(other.statusCode, 404, 'an unknown session: 404')
})
