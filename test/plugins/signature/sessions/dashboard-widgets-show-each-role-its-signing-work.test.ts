// The signature plugin's widgets on /dashboard (issue 37, item 7): "Waiting for your signature"
// for everyone signed in (their own requests), "Sessions in progress" for the roles that may read
// any session. A role without that permission never has the sessions listed for it.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { attributeValues, getPage } from '../../../helpers/pages.ts'

const widgetOf = (html: string, key: string) => html.split(`data-widget="${key}"`)[1]?.split('</section>')[0] ?? ''

t.test('per role: who sees which widget, what it shows, and what is computed for whom', async (t) => {
  const app = await buildTestApp(t)
  const cookies = { admin: await login(app, DEMO.admin.email), manager: await login(app, DEMO.manager.email), staff: await login(app, DEMO.staff.email) }
  // The real manager, counted: which users the sessions were listed for.
  const sessions = app.signature.sessions
  const listedFor: string[] = []
  const countInProgress = sessions.inProgress.bind(sessions)
  sessions.inProgress = async (user, limit) => { listedFor.push(user?.id ?? '-'); return countInProgress(user, limit) }

  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: cookies.admin }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'sequential' } })
  t.equal(created.statusCode, 201)
  const sessionId = (created.json() as { data: { id: string } }).data.id

  const staff = (await getPage(app, '/dashboard', cookies.staff)).body
  t.same(attributeValues(staff, 'data-widget'), ['signature.waiting'], 'staff: only their own requests')
  t.notMatch(staff, 'Sessions in progress')
  t.same(listedFor, [], 'staff: the sessions are never listed')
  const waiting = widgetOf(staff, 'signature.waiting')
  t.match(waiting, 'Waiting for your signature')
  t.match(waiting, /<a href="\/app\/signature-templates\/daily-time-record\/sign\/[^"]+request=[^"]+">[^<]+<\/a>/, 'the document links to the signer page on the request')
  t.match(waiting, 'Your turn')
  t.match(waiting, '<td>Daily Time Record</td>', 'the template by its label')
  t.match(waiting, '<a href="/app/inbox">Open the inbox</a>')

  const manager = (await getPage(app, '/dashboard', cookies.manager)).body
  t.same(attributeValues(manager, 'data-widget'), ['signature.waiting', 'signature.sessions-in-progress'], 'manager: both')
  t.match(widgetOf(manager, 'signature.waiting'), 'Others sign first', 'the supervisor signs after the employee')
  const inProgress = widgetOf(manager, 'signature.sessions-in-progress')
  t.match(inProgress, '<span class="widget-total">1</span>')
  t.match(inProgress, `<a href="/app/sessions/${sessionId}">`)
  t.match(inProgress, '0 of 2')
  t.same(listedFor, [DEMO.manager.id], 'listed once, for the manager')

  const admin = (await getPage(app, '/dashboard', cookies.admin)).body
  t.same(attributeValues(admin, 'data-widget'), ['signature.waiting', 'signature.sessions-in-progress'], 'admin: both')
  t.match(widgetOf(admin, 'signature.waiting'), 'Nothing waits for your signature.')

  // The spec's tiles and dock are unchanged above the widgets.
  const [launcher = ''] = admin.split('id="widgets-heading"')
  t.same(attributeValues(launcher, 'data-module'), ['PEOPLE', 'ALERTS', 'ORDERS', 'REPORTS', 'INBOX', 'SEARCH'])
})

t.test('a failing widget does not break the dashboard: the others and the tiles still show', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.manager.email)
  app.signature.sessions.inProgress = async () => { throw new Error('the sessions table is gone') }
  const page = await getPage(app, '/dashboard', cookie)
  t.equal(page.statusCode, 200)
  t.match(widgetOf(page.body, 'signature.sessions-in-progress'), 'Could not load this.')
  t.match(widgetOf(page.body, 'signature.waiting'), 'Nothing waits for your signature.')
  t.same(attributeValues(page.body.split('id="widgets-heading"')[0]!, 'data-module'), ['PEOPLE', 'ORDERS', 'REPORTS'])
})

t.test('"Sessions in progress" counts and lists every active session however many others there are, in SQL', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'sequential' } })
  t.equal(created.statusCode, 201)
  const active = (created.json() as { data: { id: string } }).data.id
  // 250 newer sessions that ended, and 3 active ones past their due date: none is in progress.
  const db = app.signature.database.db
  const at = (i: number) => new Date(Date.now() + 60_000 + i * 1000).toISOString()
  const row = (i: number, status: 'active' | 'completed' | 'cancelled', dueAt: string | null) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, template_key: 'daily-time-record', signable_id: 'dtr-staff-2026-03', signable_title: `Old ${i}`,
    mode: 'sequential' as const, status, created_by: DEMO.admin.id, frozen_document_key: 'k', frozen_sha256: 'a'.repeat(64), current_document_key: 'k',
    current_sha256: 'a'.repeat(64), revision: 0, created_at: at(i), updated_at: at(i), due_at: dueAt,
  })
  const ended = Array.from({ length: 250 }, (_, i) => row(i, i % 2 ? 'completed' : 'cancelled', null))
  const overdue = Array.from({ length: 3 }, (_, i) => row(300 + i, 'active', new Date(Date.now() - 1000).toISOString()))
  for (let i = 0; i < ended.length; i += 50) await db.insertInto('signing_sessions').values(ended.slice(i, i + 50)).execute()
  await db.insertInto('signing_sessions').values(overdue).execute()

  const inProgress = widgetOf((await getPage(app, '/dashboard', admin)).body, 'signature.sessions-in-progress')
  t.match(inProgress, '<span class="widget-total">1</span>', 'the one active session, counted')
  t.match(inProgress, `<a href="/app/sessions/${active}">`, 'and listed, behind 253 newer ones')
  t.match(inProgress, '0 of 2')
  t.notMatch(inProgress, 'Old ', 'nothing ended or overdue')
})
