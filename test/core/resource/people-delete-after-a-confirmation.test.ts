import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { cookieOf, csrfMeta, getPage, htmxWrite } from '../../helpers/pages.ts'

t.test('delete button -> confirmation -> delete, using the URLs the page itself carries', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const list = await getPage(app, '/admin/users?search=olivia', cookie)
  const confirmUrl = /<button[^>]*hx-get="([^"]+)"[^>]*data-action="delete"/.exec(list.body)?.[1]
  t.equal(confirmUrl, '/admin/users/u-001/delete')

  const confirm = await getPage(app, confirmUrl!, cookie, { 'hx-request': 'true', 'hx-target': 'modal' })
  t.equal(confirm.statusCode, 200)
  t.match(confirm.body, 'Delete Olivia Hughes?')
  t.equal((await app.inject({ url: '/api/users/u-001', headers: { cookie } })).statusCode, 200, 'asking is not deleting')
  const deleteUrl = /hx-delete="([^"]+)"/.exec(confirm.body)?.[1]
  t.equal(deleteUrl, '/admin/users/u-001')

  const deleted = await htmxWrite(app, 'DELETE', deleteUrl!, cookie, csrfMeta(list.body))
  t.equal(deleted.statusCode, 200)
  t.match(deleted.body, 'Deleted Olivia Hughes.')
  t.same(JSON.parse(deleted.headers['hx-trigger'] as string), { 'resource-changed': { slug: 'users' }, 'modal-close': true })
  t.equal((await app.inject({ url: '/api/users/u-001', headers: { cookie } })).statusCode, 404)
  const after = await getPage(app, '/admin/users?search=olivia', cookie, { 'hx-request': 'true' })
  t.match(after.body, 'data-empty-state')
})

t.test('no delete control for your own account, and the server refuses it anyway', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const list = await getPage(app, '/admin/users?search=admin%40', cookie)
  t.notMatch(list.body, 'hx-get="/admin/users/u-admin/delete"')
  // The confirmation answers as the delete would: the rule's own refusal (deleting yourself is a conflict).
  t.equal((await getPage(app, '/admin/users/u-admin/delete', cookie, { 'hx-request': 'true' })).statusCode, 409)
  const refused = await htmxWrite(app, 'DELETE', '/admin/users/u-admin', cookie, csrfMeta(list.body))
  t.equal(refused.statusCode, 409)
  t.equal((await app.inject({ url: '/api/users/u-admin', headers: { cookie } })).statusCode, 200)
})

t.test('deleted from its own page: the browser goes to the list, which says what was deleted', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const record = await getPage(app, '/admin/users/u-001', cookie)
  const deleted = await app.inject({
    method: 'DELETE', url: '/admin/users/u-001',
    headers: { cookie, accept: 'text/html', 'hx-request': 'true', 'x-csrf-token': csrfMeta(record.body), 'hx-current-url': 'http://localhost/admin/users/u-001' },
  })
  t.equal(deleted.statusCode, 200)
  t.equal(deleted.headers['hx-redirect'], '/admin/users')
  // The message travels in the session cookie the answer sets, as a browser would keep it.
  const withNotice = cookieOf(deleted)!
  const list = await getPage(app, '/admin/users', withNotice)
  t.match(list.body, /<div id="flash"[^>]*>[\s\S]*?<span class="flash-message">Deleted Olivia Hughes\.<\/span>/, 'the list page shows the message')
  t.notMatch((await getPage(app, '/admin/users', cookieOf(list) ?? withNotice)).body, 'Deleted Olivia Hughes.', 'once')
})
