import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { attributeValues, getPage } from '../../helpers/pages.ts'

const rowIds = (html: string) => attributeValues(html, 'data-row-id')
const names = (html: string) => [...html.matchAll(/<a class="cell-link" href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]!)

t.test('the table follows the URL: search, sort, page', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)

  const first = await getPage(app, '/admin/users', cookie)
  t.equal(first.statusCode, 200)
  t.equal(rowIds(first.body).length, 10, 'page size 10 from the resource definition')
  t.match(first.body, /Showing <strong>1<\/strong> to <strong>10<\/strong> of <strong>27<\/strong> results/)
  const sorted = names(first.body)
  t.same(sorted, [...sorted].sort((a, b) => a.localeCompare(b)), 'sorted by name ascending by default')
  t.match(first.body, /<th scope="col" aria-sort="ascending">/)

  const desc = await getPage(app, '/admin/users?sort=-name', cookie)
  const descending = names(desc.body)
  t.same(descending, [...descending].sort((a, b) => b.localeCompare(a)), 'descending by name')
  t.not(descending[0], sorted[0])
  t.match(desc.body, /aria-sort="descending"/)
  t.match(desc.body, 'class="sort-link" href="/admin/users" hx-get="/admin/users"', 'the header link toggles back to ascending (the default, so no query)')

  const byEmail = await getPage(app, '/admin/users?sort=email', cookie)
  t.equal(names(byEmail.body)[0], 'Ada Admin', 'admin@example.com comes first by e-mail')

  const page3 = await getPage(app, '/admin/users?page=3', cookie)
  t.equal(rowIds(page3.body).length, 7, '27 people: 10 + 10 + 7')
  t.match(page3.body, /Showing <strong>21<\/strong> to <strong>27<\/strong>/)
  t.same(new Set([...rowIds(first.body), ...rowIds((await getPage(app, '/admin/users?page=2', cookie)).body), ...rowIds(page3.body)]).size, 27, 'pages neither overlap nor skip')

  const search = await getPage(app, '/admin/users?search=MANAGER', cookie)
  t.same(rowIds(search.body), ['u-manager'], 'case-insensitive search on e-mail')
  t.match(search.body, 'value="MANAGER"', 'the search box shows the search from the URL')
  const byName = await getPage(app, '/admin/users?search=olivia', cookie)
  t.same(rowIds(byName.body), ['u-001'], 'search on name')
})

t.test('htmx asks for the table partial; links keep the state and push it to the URL', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const partial = await getPage(app, '/admin/users?search=example&sort=-email&page=2', cookie, { 'hx-request': 'true' })
  t.equal(partial.statusCode, 200)
  t.notMatch(partial.body, '<html', 'a fragment, not a page')
  t.match(partial.body.trim(), /^<div id="users-table"/)
  t.match(partial.headers.vary, /HX-Request/)
  t.match(partial.body, 'hx-get="/admin/users?search=example&amp;sort=-email"', 'previous page keeps search and sort')
  t.match(partial.body, 'hx-push-url="true"')
  t.match(partial.body, '<input type="hidden" name="sort" value="-email">', 'the search box includes the current sort')

  const restore = await getPage(app, '/admin/users?page=2', cookie, { 'hx-request': 'true', 'hx-history-restore-request': 'true' })
  t.match(restore.body, '<html', 'a history restore gets the whole page')
})

t.test('an empty state when nothing matches, with a way back', async (t) => {
  const app = await buildTestApp(t)
  const response = await getPage(app, '/admin/users?search=zzz-nobody', await login(app, DEMO.admin.email))
  t.match(response.body, 'data-empty-state')
  t.match(response.body, 'No people match “zzz-nobody”')
  t.match(response.body, 'Clear search')
  t.same(rowIds(response.body), [])
})

t.test('bad values in a shared link fall back to the defaults', async (t) => {
  const app = await buildTestApp(t)
  const response = await getPage(app, '/admin/users?sort=password&page=-4', await login(app, DEMO.admin.email))
  t.equal(response.statusCode, 200)
  t.equal(rowIds(response.body).length, 10)
})

t.test('every partial request re-checks permissions', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  await app.inject({ method: 'PATCH', url: '/api/users/u-manager', headers: { cookie: admin }, payload: { role: 'admin' } })
  const promoted = await login(app, DEMO.manager.email)
  t.equal((await getPage(app, '/admin/users', promoted, { 'hx-request': 'true' })).statusCode, 200)
  // Demoted while the page is open: the next partial request is refused.
  await app.inject({ method: 'PATCH', url: '/api/users/u-manager', headers: { cookie: admin }, payload: { role: 'manager' } })
  const after = await getPage(app, '/admin/users?page=2', promoted, { 'hx-request': 'true' })
  // A role change also revokes the user's sessions (session version), so htmx is sent to sign in.
  t.match(after.headers['hx-redirect'], /^\/login\?next=/)
  t.notMatch(after.body, 'data-row-id')
})
