import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { Panel } from '../../../core/panel/panel.ts'
import { userResource } from '../../../host-app/users/user-resource.ts'
import { createUserService } from '../../../host-app/users/user-service.ts'
import { buildAppWith, csrfMeta, getPage } from '../../helpers/pages.ts'
import { holdNextWrite } from '../../helpers/hold-store-write.ts'

/** A bulk delete as the confirmation's form sends it: one `ids` per chosen row. */
function bulkDelete(app: FastifyInstance, cookie: string, token: string | undefined, ids: string[], extra: Array<[string, string]> = []) {
  return app.inject({
    method: 'POST',
    url: '/admin/users/bulk-delete',
    headers: { cookie, accept: 'text/html', 'hx-request': 'true', 'content-type': 'application/x-www-form-urlencoded', ...(token ? { 'x-csrf-token': token } : {}) },
    payload: new URLSearchParams([...ids.map((id): [string, string] => ['ids', id]), ...extra]).toString(),
  })
}

const exists = async (app: FastifyInstance, cookie: string, id: string) => (await app.inject({ url: `/api/users/${id}`, headers: { cookie } })).statusCode === 200

t.test('admin: a checkbox per row, a confirmation naming the count, then both are gone', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const list = await getPage(app, '/admin/users?search=olivia', cookie)
  t.match(list.body, '<input type="checkbox" class="checkbox" data-select-all aria-label="Select all on this page">')
  t.match(list.body, '<input type="checkbox" class="checkbox" name="ids" value="u-001" aria-label="Select Olivia Hughes" data-select-row>')
  const own = await getPage(app, '/admin/users?search=admin%40', cookie)
  t.match(own.body, 'data-row-id="u-admin"')
  t.notMatch(own.body, 'value="u-admin"', 'no checkbox on your own account')
  t.match(list.body, 'hx-get="/admin/users/bulk-delete"')

  const confirm = await getPage(app, '/admin/users/bulk-delete?ids=u-001&ids=u-002', cookie, { 'hx-request': 'true' })
  t.equal(confirm.statusCode, 200)
  t.match(confirm.body, 'Delete 2 people?')
  t.match(confirm.body, 'Olivia Hughes, Noah Silva will be removed.')
  t.match(confirm.body, '<input type="hidden" name="ids" value="u-001"><input type="hidden" name="ids" value="u-002">')
  t.ok(await exists(app, cookie, 'u-001'), 'asking is not deleting')

  const deleted = await bulkDelete(app, cookie, csrfMeta(list.body), ['u-001', 'u-002', 'u-001'])
  t.equal(deleted.statusCode, 200)
  t.match(deleted.body, 'Deleted 2 people.', 'a repeated id counts once')
  t.same(JSON.parse(deleted.headers['hx-trigger'] as string), { 'resource-changed': { slug: 'users' }, 'modal-close': true })
  t.notOk(await exists(app, cookie, 'u-001'))
  t.notOk(await exists(app, cookie, 'u-002'))
  t.match((await getPage(app, '/admin/users', cookie)).body, /of <strong>25<\/strong> results/)
})

t.test('one refused or unknown id refuses the whole request and deletes nothing', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const token = csrfMeta((await getPage(app, '/admin/users', cookie)).body)

  const self = await bulkDelete(app, cookie, token, ['u-001', 'u-admin'])
  t.equal(self.statusCode, 409, 'your own account among them')
  t.equal(self.headers['x-error-code'], 'ERR_CONFLICT')
  t.match(self.body, 'You cannot delete your own account')
  t.equal((await getPage(app, '/admin/users/bulk-delete?ids=u-admin', cookie, { 'hx-request': 'true' })).statusCode, 409, 'nor confirmed')

  const unknown = await bulkDelete(app, cookie, token, ['u-001', 'u-nobody'])
  t.equal(unknown.statusCode, 404)
  t.equal(unknown.headers['x-error-code'], 'ERR_NOT_FOUND')

  for (const [label, ids, extra] of [['no ids', [], []], ['an empty id', [''], []], ['101 ids', Array.from({ length: 101 }, (_, i) => `u-x${i}`), []], ['an unknown field', ['u-001'], [['role', 'staff']]]] as const) {
    const bad = await bulkDelete(app, cookie, token, [...ids], extra.map(([k, v]) => [k, v]))
    t.equal(bad.statusCode, 400, label)
    t.equal(bad.headers['x-error-code'], 'ERR_VALIDATION', label)
  }

  const noToken = await bulkDelete(app, cookie, undefined, ['u-001'])
  t.equal(noToken.statusCode, 403)
  t.equal(noToken.headers['x-error-code'], 'ERR_CSRF')
  const wrongToken = await bulkDelete(app, cookie, 'x'.repeat(token.length), ['u-001'])
  t.equal(wrongToken.headers['x-error-code'], 'ERR_CSRF')

  t.ok(await exists(app, cookie, 'u-001'), 'nothing was deleted')
  t.match((await getPage(app, '/admin/users', cookie)).body, /of <strong>27<\/strong> results/)
})

t.test('a role without the delete permission sees no checkboxes and is refused by the same check', async (t) => {
  // A panel open to every signed-in user, so a manager (users:* but deny users:delete) reaches the screen.
  const app = await buildAppWith(t, async (app) => {
    const service = createUserService(app.policy, app.users)
    await app.register(Panel.make().id('people').path('people').access('signed-in').resources([userResource(service, app.policy)]))
  })
  const admin = await login(app, DEMO.admin.email)
  const manager = await login(app, DEMO.manager.email)
  const list = await getPage(app, '/people/users', manager)
  t.equal(list.statusCode, 200)
  t.notMatch(list.body, 'data-select-row', 'no row checkboxes')
  t.notMatch(list.body, 'data-bulk-delete', 'no bulk bar')
  t.equal((await getPage(app, '/people/users/bulk-delete?ids=u-001', manager, { 'hx-request': 'true' })).statusCode, 403, 'no confirmation')
  const refused = await app.inject({
    method: 'POST', url: '/people/users/bulk-delete',
    headers: { cookie: manager, accept: 'text/html', 'hx-request': 'true', 'content-type': 'application/x-www-form-urlencoded', 'x-csrf-token': csrfMeta(list.body) },
    payload: 'ids=u-001&ids=u-staff',
  })
  t.equal(refused.statusCode, 403)
  t.equal(refused.headers['x-error-code'], 'ERR_ACCESS_DENIED')
  t.ok(await exists(app, admin, 'u-001'))
  t.ok(await exists(app, admin, 'u-staff'))
})

// A bulk delete checks every id first, then writes. A record deleted by someone else between the
// check and the write must refuse the whole request, without the others deleted halfway.
for (const store of ['memory', 'database'] as const) {
  t.test(`${store} store: a person deleted meanwhile refuses the bulk delete, and none of the others is deleted`, async (t) => {
    const app = await buildTestApp(t, { env: { USERS_STORE: store } })
    const cookie = await login(app, DEMO.admin.email)
    const token = csrfMeta((await getPage(app, '/admin/users', cookie)).body)
    // The bulk request's first write is held as it reaches the store, whichever method it uses.
    const hold = holdNextWrite(app.users, ['delete', 'deleteMany'], 'u-001')
    const bulk = bulkDelete(app, cookie, token, ['u-001', 'u-002', 'u-003'])
    await hold.reached
    t.equal((await app.inject({ method: 'DELETE', url: '/api/users/u-003', headers: { cookie, origin: 'http://localhost:80', host: 'localhost:80' } })).statusCode, 204, 'another admin deletes u-003 meanwhile')
    hold.release()
    const answer = await bulk
    t.equal(answer.statusCode, 404, 'the bulk delete is refused: u-003 is gone')
    t.equal(answer.headers['x-error-code'], 'ERR_NOT_FOUND')
    t.ok(await exists(app, cookie, 'u-001'), 'u-001 is still there')
    t.ok(await exists(app, cookie, 'u-002'), 'u-002 is still there')
    t.match((await getPage(app, '/admin/users', cookie)).body, /of <strong>26<\/strong> results/, 'only the other admin\'s delete happened')
  })
}
