// Every page's top bar links to the panels a person may enter and to the signature pages every
// signed-in person uses (issue 20, item 1): nothing is reachable only by typing its URL.
import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { cookieOf, getPage } from '../../helpers/pages.ts'

/** The top bar's links of a page, as [key, href, count] (count: the badge's number, or null). */
function topbarOf(html: string): Array<[string, string, number | null]> {
  const nav = /<nav class="topbar-nav"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? ''
  return [...nav.matchAll(/<a class="topbar-link[^"]*" href="([^"]+)" data-topbar="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)]
    .map((m) => [m[2]!, m[1]!, /class="count-badge"><span aria-hidden="true">(\d+)</.exec(m[3]!) ? Number(/aria-hidden="true">(\d+)</.exec(m[3]!)![1]) : null])
}

t.test('each role sees the panels it may enter, My signatures and the Inbox, on every page', async (t) => {
  const app = await buildTestApp(t)
  const expected = {
    admin: [['panel:admin', '/admin', null], ['panel:app', '/app', null], ['signature.my-signatures', '/app/my-signatures', null], ['signature.inbox', '/app/inbox', null]],
    manager: [['panel:app', '/app', null], ['signature.my-signatures', '/app/my-signatures', null], ['signature.inbox', '/app/inbox', null]],
    staff: [['panel:app', '/app', null], ['signature.my-signatures', '/app/my-signatures', null], ['signature.inbox', '/app/inbox', null]],
  } as const
  for (const role of ['admin', 'manager', 'staff'] as const) {
    const cookie = await login(app, DEMO[role].email)
    // The launcher, a panel page and the 404 page: the bar is the layout's, not a page's.
    for (const url of ['/dashboard', '/app/my-signatures', '/orders']) {
      t.same(topbarOf((await getPage(app, url, cookie)).body), expected[role], `${role} ${url}`)
    }
    // Each link opens for that role (no link leads to a refusal).
    for (const [, href] of expected[role]) t.equal((await getPage(app, href, cookie)).statusCode, 200, `${role} opens ${href}`)
  }
  t.same(topbarOf((await getPage(app, '/login')).body), [], 'signed out: no top bar links')
})

t.test('the Inbox counts the requests that are the user\'s turn, and only those', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  const manager = await login(app, DEMO.manager.email)
  const inboxCount = async (cookie: string) => topbarOf((await getPage(app, '/dashboard', cookie)).body).find(([key]) => key === 'signature.inbox')![2]
  t.equal(await inboxCount(staff), null, 'nothing waits: no badge')

  const created = await app.inject({ method: 'POST', url: '/api/signing-sessions', headers: { cookie: admin }, payload: { template: 'daily-time-record', signable: 'dtr-staff-2026-03', mode: 'sequential' } })
  t.equal(created.statusCode, 201, created.body)
  t.equal(await inboxCount(staff), 1, 'the employee signs first: 1 waiting')
  t.equal(await inboxCount(manager), null, 'the supervisor waits for the employee: not counted yet')
  const html = (await getPage(app, '/dashboard', staff)).body
  t.match(html, /<span class="sr-only">1 waiting for your signature<\/span>/, 'the count is said in words to screen readers')
})

t.test('a manager sent back from the admin panel is told why on the dashboard, once', async (t) => {
  const app = await buildTestApp(t)
  let cookie = await login(app, DEMO.manager.email)
  const refused = await getPage(app, '/admin/users', cookie)
  t.equal(refused.statusCode, 307)
  t.equal(refused.headers.location, '/dashboard', 'the redirect is unchanged')
  cookie = cookieOf(refused) ?? cookie
  const dashboard = await getPage(app, '/dashboard', cookie)
  t.match(dashboard.body, /<div id="flash"[^>]*><div class="flash flash-info" role="status"[^>]*>[\s\S]*?<span class="flash-message">Admin is for administrators: your role \(manager\) cannot open it\.<\/span>/)
  const again = await getPage(app, '/dashboard', cookieOf(dashboard) ?? cookie)
  t.notMatch(again.body, /is for administrators/, 'shown once')
  t.match(again.body, /<div id="flash" class="flash-region" aria-live="polite"><\/div>/)
})
