import t from 'tap'
import { Panel } from '../../../../core/panel/panel.ts'
import { SignaturePlugin } from '../../../../plugins/signature/signature-plugin.ts'
import { DEMO, login } from '../../../helpers/app.ts'
import { buildAppWith, csrfFor, getPage } from '../../../helpers/pages.ts'

const GOOD = { page: 1, x: 50, y: 60, width: 200, height: 40 }

t.test('saves without the session\'s CSRF token are refused and write nothing', async (t) => {
  const app = await buildAppWith(t, () => {})
  const cookie = await login(app, DEMO.admin.email)
  const url = '/admin/signature-templates/payslip/design/slots/employee'
  const headers = { cookie, accept: 'application/json', 'content-type': 'application/json' }
  const none = await app.inject({ method: 'POST', url, headers, payload: JSON.stringify(GOOD) })
  t.equal(none.statusCode, 403)
  t.equal(none.json().code, 'ERR_CSRF')
  const wrong = await app.inject({ method: 'POST', url, headers: { ...headers, 'x-csrf-token': 'x'.repeat(43) }, payload: JSON.stringify(GOOD) })
  t.equal(wrong.statusCode, 403)
  t.equal(wrong.json().code, 'ERR_CSRF')
  // Another session's token is not this session's.
  const other = await login(app, DEMO.admin.email)
  const foreign = await app.inject({ method: 'POST', url, headers: { ...headers, 'x-csrf-token': await csrfFor(app, other) }, payload: JSON.stringify(GOOD) })
  t.equal(foreign.statusCode, 403)
  t.same(await app.signature.slots.forTemplate('payslip'), [])
  const right = await app.inject({ method: 'POST', url, headers: { ...headers, 'x-csrf-token': await csrfFor(app, cookie) }, payload: JSON.stringify(GOOD) })
  t.equal(right.statusCode, 200)
})

t.test('without signature-templates:design: 403 from the handler itself, the panel redirect for pages', async (t) => {
  // A panel every signed-in user may enter, so the designer's own check is what refuses a manager.
  const app = await buildAppWith(t, (app) => app.register(Panel.make().id('desk').path('desk').access('signed-in').plugin(SignaturePlugin.make())))
  const base = '/desk/signature-templates/payslip/design'
  for (const person of [DEMO.manager, DEMO.staff]) {
    const cookie = await login(app, person.email)
    const token = await csrfFor(app, cookie)
    for (const url of [`${base}/meta`, `${base}/pages/1`]) {
      const response = await app.inject({ url, headers: { cookie, accept: 'application/json' } })
      t.equal(response.statusCode, 403, `${person.id} GET ${url}`)
      t.equal(response.json().code, 'ERR_ACCESS_DENIED')
      t.notMatch(response.rawPayload.subarray(0, 8).toString('latin1'), 'PNG')
    }
    const save = await app.inject({ method: 'POST', url: `${base}/slots/employee`, headers: { cookie, 'x-csrf-token': token, accept: 'application/json' }, payload: GOOD })
    t.equal(save.statusCode, 403, `${person.id} cannot save`)
    t.equal(save.json().code, 'ERR_ACCESS_DENIED')
    const page = await getPage(app, base, cookie)
    t.equal(page.statusCode, 403, `${person.id}: the page is an HTML 403`)
    t.match(page.headers['content-type'], /text\/html/)
    t.notMatch(page.body, 'data-meta-url')

    // On the admin panel the gate answers first: pages redirect, scripts get 403.
    t.equal((await getPage(app, '/admin/signature-templates/payslip/design', cookie)).statusCode, 307)
    t.equal((await app.inject({ url: '/admin/signature-templates/payslip/design/meta', headers: { cookie, accept: 'application/json' } })).statusCode, 403)
  }
  t.same(await app.signature.slots.forTemplate('payslip'), [], 'nothing was written')

  const admin = await login(app, DEMO.admin.email)
  t.equal((await app.inject({ url: `${base}/meta`, headers: { cookie: admin } })).statusCode, 200, 'admin may, on any panel')
  const anonymous = await app.inject({ url: `${base}/meta`, headers: { accept: 'application/json' } })
  t.equal(anonymous.statusCode, 401)
})
