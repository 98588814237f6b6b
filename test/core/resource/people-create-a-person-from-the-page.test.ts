import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { Panel } from '../../../core/panel/panel.ts'
import { userResource } from '../../../host-app/users/user-resource.ts'
import { createUserService } from '../../../host-app/users/user-service.ts'
import { buildAppWith, cookieOf, csrfMeta, getPage, htmxWrite } from '../../helpers/pages.ts'

const NEW = { name: 'Nia Newcomer', email: 'Nia.Newcomer@example.com', role: 'staff', password: 'a-long-password' }

t.test('New person: the list links to a form built from the resource fields, and it creates the person', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const list = await getPage(app, '/admin/users', cookie)
  t.match(list.body, /<a class="button button-primary" href="\/admin\/users\/new" data-action="create">[\s\S]*?New person<\/a>/)
  const form = await getPage(app, '/admin/users/new', cookie)
  t.equal(form.statusCode, 200)
  t.match(form.body, '<h1>New person</h1>')
  t.match(form.body, /<form class="form" hx-post="\/admin\/users"/)
  for (const id of ['field-name', 'field-email', 'field-role', 'field-password']) t.match(form.body, `for="${id}"`, `${id} has a label`)
  t.match(form.body, /id="field-password" name="password" type="password" value="" autocomplete="new-password"/)

  const created = await htmxWrite(app, 'POST', '/admin/users', cookie, csrfMeta(form.body), NEW)
  t.equal(created.statusCode, 200)
  const location = created.headers['hx-redirect'] as string
  t.match(location, /^\/admin\/users\/[0-9a-f-]{36}$/, 'sent to the new record')
  // The message travels in the session cookie the answer sets, as a browser would keep it.
  const withNotice = cookieOf(created)!
  const record = await getPage(app, location, withNotice)
  t.match(record.body, '<h1 id="record-title">Nia Newcomer</h1>')
  t.match(record.body, 'Created Nia Newcomer.', 'the record page says so, once')
  t.notMatch((await getPage(app, location, cookieOf(record) ?? withNotice)).body, 'Created Nia Newcomer.')
  // The password was stored hashed (scrypt) and works; the e-mail is stored lower-cased.
  const own = await login(app, 'nia.newcomer@example.com', NEW.password)
  t.equal((await app.inject({ url: '/api/users', headers: { cookie: own } })).statusCode, 200)
  const stored = await app.users.findByEmail('nia.newcomer@example.com')
  t.match(stored?.passwordHash, /^scrypt\$/, 'an scrypt hash, not the password')
  t.notMatch(stored?.passwordHash, NEW.password)
})

t.test('invalid fields and a taken e-mail are marked on the form; nothing is created', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const token = csrfMeta((await getPage(app, '/admin/users/new', cookie)).body)
  const count = async () => (await app.inject({ url: '/api/users?perPage=1', headers: { cookie } })).json().meta.total

  const short = await htmxWrite(app, 'POST', '/admin/users', cookie, token, { ...NEW, password: 'short' })
  t.equal(short.statusCode, 422)
  t.match(short.body, /id="field-password"[^>]*aria-invalid="true"[^>]*aria-describedby="field-password-help field-password-error"/)
  t.match(short.body, '<p class="field-error" id="field-password-error">At least 8 characters</p>')
  t.match(short.body, 'value="Nia Newcomer"', 'what was typed is kept')
  t.notMatch(short.body, 'value="short"', 'but never the password')

  const taken = await htmxWrite(app, 'POST', '/admin/users', cookie, token, { ...NEW, email: 'MANAGER@example.com' })
  t.equal(taken.statusCode, 422)
  t.match(taken.body, /id="field-email"[^>]*aria-invalid="true"[^>]*aria-describedby="field-email-error"/)
  t.match(taken.body, 'is already in use')

  const missing = await htmxWrite(app, 'POST', '/admin/users', cookie, token, { name: 'X', email: 'x@example.com', role: 'staff' })
  t.equal(missing.statusCode, 422)
  t.match(missing.body, 'id="field-password-error"')

  const forged = await htmxWrite(app, 'POST', '/admin/users', cookie, token, { ...NEW, id: 'u-chosen' })
  t.equal(forged.statusCode, 400)
  t.equal(forged.headers['x-error-code'], 'ERR_VALIDATION')

  const noToken = await htmxWrite(app, 'POST', '/admin/users', cookie, undefined, NEW)
  t.equal(noToken.headers['x-error-code'], 'ERR_CSRF')
  t.equal(await count(), 27, 'nobody was created')
})

t.test('the role select offers only what the actor may give, and the server refuses the rest', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const form = await getPage(app, '/admin/users/new', cookie)
  for (const role of ['admin', 'manager', 'staff']) t.match(form.body, `<option value="${role}"`, `an admin may give ${role}`)
  const bad = await htmxWrite(app, 'POST', '/admin/users', cookie, csrfMeta(form.body), { ...NEW, role: 'owner' })
  t.equal(bad.statusCode, 422)
  t.match(bad.body, 'id="field-role-error"')
})

t.test('without users:create there is no New person button, and the form and its write are refused', async (t) => {
  // A panel open to every signed-in user, so staff (users:read only) reach the screen.
  const app = await buildAppWith(t, async (app) => {
    const service = createUserService(app.policy, app.users)
    await app.register(Panel.make().id('people').path('people').access('signed-in').resources([userResource(service, app.policy)]))
  })
  const staff = await login(app, DEMO.staff.email)
  const list = await getPage(app, '/people/users', staff)
  t.equal(list.statusCode, 200)
  t.notMatch(list.body, 'data-action="create"')
  t.equal((await getPage(app, '/people/users/new', staff)).statusCode, 403)
  const refused = await htmxWrite(app, 'POST', '/people/users', staff, csrfMeta(list.body), NEW)
  t.equal(refused.statusCode, 403)
  t.equal(refused.headers['x-error-code'], 'ERR_ACCESS_DENIED')
  t.equal(await app.users.findByEmail(NEW.email), null, 'nobody was created')
})
