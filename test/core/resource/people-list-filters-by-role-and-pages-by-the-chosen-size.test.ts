import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { attributeValues, getPage } from '../../helpers/pages.ts'

const rowIds = (html: string) => attributeValues(html, 'data-row-id')
const roles = (html: string) => [...html.matchAll(/<td data-label="Role">\s*<span class="badge badge-[a-z]+">([^<]+)<\/span>/g)].map((m) => m[1]!)
const names = (html: string) => [...html.matchAll(/<a class="cell-link" href="[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]!)

t.test('?role= narrows the list to one role, with the count, and every link keeps it', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const page = await getPage(app, '/admin/users?role=manager', cookie)
  t.equal(page.statusCode, 200)
  // Demo data: Max Manager and every third generated person (8 of 24).
  t.match(page.body, /of <strong>9<\/strong> results/)
  t.same(new Set(roles(page.body)), new Set(['manager']), 'only managers')
  t.match(page.body, /<select class="input input-compact" id="filter-role" name="role" data-filter="role">[\s\S]*?<option value="manager" selected>Manager<\/option>/, 'the select shows the filter')
  t.match(page.body, 'href="/admin/users?role=manager&amp;sort=-name"', 'a sort link keeps the filter')

  const searched = await getPage(app, '/admin/users?role=staff&search=sam', cookie)
  t.same(rowIds(searched.body), ['u-staff'], 'the filter and the search together')

  const none = await getPage(app, '/admin/users?role=admin&search=olivia', cookie)
  t.match(none.body, 'data-empty-state')
  t.match(none.body, 'Clear search and filters')
  t.match(none.body, 'data-clear-search', 'the way back clears both')
  t.match(none.body, 'href="/admin/users" hx-get="/admin/users"')
})

t.test('a role that is not offered is no filter at all (a stale link still opens the list)', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  for (const query of ['role=owner', 'role=', 'role=admin&role=staff']) {
    const page = await getPage(app, `/admin/users?${query}`, cookie)
    t.equal(page.statusCode, 200, query)
    t.match(page.body, /of <strong>27<\/strong> results/, `${query}: every person`)
  }
})

t.test('the per-page choice is one of the offered sizes, else the default', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const page25 = await getPage(app, '/admin/users?perPage=25', cookie)
  t.equal(rowIds(page25.body).length, 25)
  t.match(page25.body, /<option value="25" selected>25<\/option>/)
  t.match(page25.body, 'href="/admin/users?perPage=25&amp;page=2"', 'the next page keeps the size')
  const page2 = await getPage(app, '/admin/users?perPage=25&page=2', cookie)
  t.equal(rowIds(page2.body).length, 2, '27 people: 25 + 2')
  for (const bad of ['7', '0', '101', '1000', 'abc', '-10']) {
    t.equal(rowIds((await getPage(app, `/admin/users?perPage=${bad}`, cookie)).body).length, 10, `perPage=${bad} falls back to 10`)
  }
})

t.test('sorting by role puts each role in name order', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const page = await getPage(app, '/admin/users?sort=role&perPage=100', cookie)
  const rows = names(page.body).map((name, i) => ({ name, role: roles(page.body)[i]! }))
  t.equal(rows.length, 27)
  for (const role of ['admin', 'manager', 'staff']) {
    const inRole = rows.filter((r) => r.role === role).map((r) => r.name)
    t.same(inRole, [...inRole].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })), `${role}s by name`)
  }
  const desc = names((await getPage(app, '/admin/users?sort=-role&perPage=100', cookie)).body)
  t.same(desc, [...names(page.body)].reverse(), 'descending is the exact reverse')
})
