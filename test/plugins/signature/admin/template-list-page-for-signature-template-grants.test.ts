import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'

t.test('admin sees every template with key, label, slot count, availability and a sample link', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const page = await app.inject({ url: '/admin/signature-templates', headers: { cookie } })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /text\/html/)
  for (const key of ['daily-time-record', 'payslip', 'contract']) {
    t.match(page.body, `data-template="${key}"`, `${key} is listed`)
    t.match(page.body, `href="/admin/signature-templates/${key}/sample.pdf" target="_blank" rel="noopener" data-sample-link>Sample PDF<span class="sr-only"> (opens in a new tab)</span>`, `${key} links its sample, in a new tab, and says so`)
  }
  t.match(page.body, '<span class="badge badge-success">Available</span>', "an available renderer is shown in the success colour, not the brand's amber")
  t.match(page.body, 'Daily Time Record')
  t.match(page.body, 'href="/admin/signature-templates"', 'the sidebar links the page')

  const json = await app.inject({ url: '/admin/signature-templates', headers: { cookie, accept: 'application/json' } })
  const rows = (json.json() as { data: Array<{ key: string; slotCount: number; available: boolean; origin: string }> }).data
  t.same(rows.map((r) => [r.key, r.slotCount, r.origin]).sort(), [['contract', 3, 'fluent'], ['daily-time-record', 2, 'config'], ['payslip', 2, 'runtime']])
  t.ok(rows.find((r) => r.key === 'payslip')!.available, 'pdf-lib needs nothing')
})

t.test('the payslip sample is served as a PDF', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const response = await app.inject({ url: '/admin/signature-templates/payslip/sample.pdf', headers: { cookie } })
  t.equal(response.statusCode, 200)
  t.equal(response.headers['content-type'], 'application/pdf')
  t.equal(response.rawPayload.subarray(0, 5).toString(), '%PDF-')
  const missing = await app.inject({ url: '/admin/signature-templates/nope/sample.pdf', headers: { cookie, accept: 'application/json' } })
  t.equal(missing.statusCode, 404)
})

t.test('roles without the grant never reach it', async (t) => {
  const app = await buildTestApp(t)
  for (const person of [DEMO.manager, DEMO.staff]) {
    const cookie = await login(app, person.email)
    for (const url of ['/admin/signature-templates', '/admin/signature-templates/payslip/sample.pdf']) {
      const response = await app.inject({ url, headers: { cookie } })
      t.equal(response.statusCode, 307, `${person.id} ${url} is redirected`)
      t.notMatch(response.body, '%PDF')
    }
  }
  const anonymous = await app.inject({ url: '/admin/signature-templates' })
  t.ok([302, 303, 307].includes(anonymous.statusCode), 'signed out: sent to sign in')
})
