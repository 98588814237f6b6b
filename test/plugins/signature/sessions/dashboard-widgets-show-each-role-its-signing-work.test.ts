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
  const list = sessions.list.bind(sessions)
  sessions.list = async (user) => { listedFor.push(user?.id ?? '-'); return list(user) }

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
  app.signature.sessions.list = async () => { throw new Error('the sessions table is gone') }
  const page = await getPage(app, '/dashboard', cookie)
  t.equal(page.statusCode, 200)
  t.match(widgetOf(page.body, 'signature.sessions-in-progress'), 'Could not load this.')
  t.match(widgetOf(page.body, 'signature.waiting'), 'Nothing waits for your signature.')
  t.same(attributeValues(page.body.split('id="widgets-heading"')[0]!, 'data-module'), ['PEOPLE', 'ORDERS', 'REPORTS'])
})
