import t from 'tap'
import { buildTestApp, DEMO, login } from '../../helpers/app.ts'
import { csrfMeta, getPage, htmxWrite } from '../../helpers/pages.ts'

const STAFF = { name: 'Sam Staff', email: 'staff@example.com', role: 'staff' }
const signedIn = async (app: Parameters<typeof getPage>[0], cookie: string) => (await app.inject({ url: '/api/users', headers: { cookie } })).statusCode

t.test('an admin sets a new password: it works, the old one does not, and the person is signed out everywhere', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  const page = await getPage(app, '/admin/users/u-staff', admin)
  t.match(page.body, /<label class="field-label" for="field-password">New password<\/label>/)
  t.match(page.body, /id="field-password" name="password" type="password" value=""/, 'always shown empty')

  const saved = await htmxWrite(app, 'POST', '/admin/users/u-staff', admin, csrfMeta(page.body), { ...STAFF, password: 'brand-new-secret' })
  t.equal(saved.statusCode, 200)
  t.match(saved.body, 'Saved.')
  t.notMatch(saved.body, 'brand-new-secret', 'the password is not sent back')
  t.equal(await signedIn(app, staff), 401, 'the old session has ended')
  await t.rejects(login(app, DEMO.staff.email, 'password'), 'the old password is refused')
  t.equal(await signedIn(app, await login(app, DEMO.staff.email, 'brand-new-secret')), 200, 'the new one signs in')
})

t.test('an empty password field changes nothing and ends no session; a short one is marked', async (t) => {
  const app = await buildTestApp(t)
  const admin = await login(app, DEMO.admin.email)
  const staff = await login(app, DEMO.staff.email)
  const token = csrfMeta((await getPage(app, '/admin/users/u-staff', admin)).body)

  const renamed = await htmxWrite(app, 'POST', '/admin/users/u-staff', admin, token, { ...STAFF, name: 'Sam Renamed', password: '' })
  t.equal(renamed.statusCode, 200)
  t.equal(await signedIn(app, staff), 200, 'a rename keeps the sessions')
  t.equal(await signedIn(app, await login(app, DEMO.staff.email, 'password')), 200, 'the password is unchanged')

  const short = await htmxWrite(app, 'POST', '/admin/users/u-staff', admin, token, { ...STAFF, password: 'short' })
  t.equal(short.statusCode, 422)
  t.match(short.body, /id="field-password"[^>]*aria-invalid="true"/)
  t.match(short.body, '<p class="field-error" id="field-password-error">At least 8 characters</p>')
  t.equal(await signedIn(app, staff), 200, 'nothing was written')
})
