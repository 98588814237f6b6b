import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { csrfMeta, getPage, htmxWrite } from '../../helpers/pages.ts'

t.test('the edit form posts where the page says, saves through the service and says so', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const page = await getPage(app, '/admin/users/u-001', cookie)
  t.equal(page.statusCode, 200)
  const action = /<form class="form" hx-post="([^"]+)"/.exec(page.body)?.[1]
  t.equal(action, '/admin/users/u-001')
  for (const id of ['field-name', 'field-email', 'field-role']) t.match(page.body, `<label class="field-label" for="${id}">`, `${id} has a label`)

  const saved = await htmxWrite(app, 'POST', action!, cookie, csrfMeta(page.body), { name: 'Olivia Renamed', email: 'olivia@example.com', role: 'manager' })
  t.equal(saved.statusCode, 200)
  t.match(saved.body, /class="flash flash-success" role="status"[^>]*>[\s\S]*?<span class="flash-message">Saved\.<\/span>/)
  t.match(saved.body, 'value="Olivia Renamed"')
  t.match(saved.body, '<h1 id="record-title" hx-swap-oob="true">Olivia Renamed</h1>', 'the heading follows')
  const api = await app.inject({ url: '/api/users/u-001', headers: { cookie } })
  t.same(api.json().data, { id: 'u-001', name: 'Olivia Renamed', email: 'olivia@example.com', role: 'manager' })
})

t.test('invalid fields come back inline, next to the field, and nothing is written', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const token = csrfMeta((await getPage(app, '/admin/users/u-001', cookie)).body)
  const response = await htmxWrite(app, 'POST', '/admin/users/u-001', cookie, token, { name: '', email: 'not-an-email', role: 'staff' })
  t.equal(response.statusCode, 422)
  t.match(response.body, /<input class="input" id="field-name"[^>]*aria-invalid="true" aria-describedby="field-name-error"/)
  t.match(response.body, /<p class="field-error" id="field-email-error">Not an e-mail address<\/p>/)
  t.match(response.body, 'value="not-an-email"', 'what was typed is kept')
  t.equal((await app.inject({ url: '/api/users/u-001', headers: { cookie } })).json().data.name, 'Olivia Hughes')
})

t.test('only the form fields can be written: anything else is refused', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const token = csrfMeta((await getPage(app, '/admin/users/u-001', cookie)).body)
  const response = await htmxWrite(app, 'POST', '/admin/users/u-001', cookie, token, { name: 'X', email: 'x@example.com', role: 'staff', sessionVersion: '0' })
  t.equal(response.statusCode, 400)
  t.match(response.body, 'unknown field(s): sessionVersion')
  t.equal(response.headers['hx-retarget'], '#flash', 'shown as a flash on the page')
  t.equal((await app.inject({ url: '/api/users/u-001', headers: { cookie } })).json().data.name, 'Olivia Hughes')
})

t.test('an e-mail that is taken is a message on the form', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const token = csrfMeta((await getPage(app, '/admin/users/u-001', cookie)).body)
  const response = await htmxWrite(app, 'POST', '/admin/users/u-001', cookie, token, { name: 'Olivia', email: 'manager@example.com', role: 'staff' })
  t.equal(response.statusCode, 422)
  t.match(response.body, 'already in use')
  // Issue 21: next to the field, which is marked invalid and described by it.
  t.match(response.body, /<p class="field-error" id="field-email-error">The e-mail manager@example.com is already in use<\/p>/)
  t.match(response.body, /id="field-email"[^>]*aria-invalid="true"[^>]*aria-describedby="field-email-error"/)
})

t.test('the server refuses what the form does not offer: the same rules as the API', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const page = await getPage(app, '/admin/users/u-admin', cookie)
  t.notMatch(page.body, '<option value="manager"', 'no other role is offered for your own account')
  const response = await htmxWrite(app, 'POST', '/admin/users/u-admin', cookie, csrfMeta(page.body), { name: 'Ada', email: 'admin@example.com', role: 'staff' })
  t.equal(response.statusCode, 403)
  t.match(response.body, 'You cannot change your own role')
})
