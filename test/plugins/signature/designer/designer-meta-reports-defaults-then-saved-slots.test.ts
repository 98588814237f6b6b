import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { csrfFor } from '../../../helpers/pages.ts'

const BASE = '/admin/signature-templates/payslip/design'
// The template's declared placement, answered with every slot so the designer can reset to it.
const EMPLOYEE_DEFAULT = { page: 1, x: 56, y: 92, width: 204, height: 44 }

t.test('meta: page sizes in points and every slot at its defaults, then the saved row', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const before = await app.inject({ url: `${BASE}/meta`, headers: { cookie, accept: 'application/json' } })
  t.equal(before.statusCode, 200)
  t.same(before.json(), {
    template: { key: 'payslip', label: 'Payslip' },
    dpi: 144,
    pages: [{ page: 1, width: 595.28, height: 841.89 }],
    slots: [
      { key: 'employee', label: 'Employee', required: true, page: 1, x: 56, y: 92, width: 204, height: 44, saved: false, default: EMPLOYEE_DEFAULT },
      { key: 'payroll', label: 'Payroll officer', required: true, page: 1, x: 335, y: 92, width: 204, height: 44, saved: false, default: { page: 1, x: 335, y: 92, width: 204, height: 44 } },
    ],
  })

  const token = await csrfFor(app, cookie)
  const placement = { page: 1, x: 100.5, y: 200.25, width: 180, height: 40 }
  const save = await app.inject({ method: 'POST', url: `${BASE}/slots/employee`, headers: { cookie, 'x-csrf-token': token }, payload: placement })
  t.equal(save.statusCode, 200)
  t.same(save.json(), { key: 'employee', label: 'Employee', required: true, ...placement, saved: true, default: EMPLOYEE_DEFAULT }, 'answers the saved slot, and still its default')

  const after = (await app.inject({ url: `${BASE}/meta`, headers: { cookie } })).json() as { slots: Array<Record<string, unknown>> }
  t.same(after.slots[0], { key: 'employee', label: 'Employee', required: true, ...placement, saved: true, default: EMPLOYEE_DEFAULT })
  t.same(after.slots[1]!.saved, false, 'the other slot still sits at its defaults')

  // A second save updates the one row (upsert by template and slot).
  const moved = { ...placement, x: 10 }
  t.equal((await app.inject({ method: 'POST', url: `${BASE}/slots/employee`, headers: { cookie, 'x-csrf-token': token }, payload: moved })).statusCode, 200)
  const rows = await app.signature.slots.forTemplate('payslip')
  t.equal(rows.length, 1)
  t.same({ page: rows[0]!.page, x: rows[0]!.x, y: rows[0]!.y, width: rows[0]!.width, height: rows[0]!.height }, moved)
})

t.test('the designer page carries its URLs and loads its script as a module; the list links to it', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const page = await app.inject({ url: BASE, headers: { cookie, accept: 'text/html' } })
  t.equal(page.statusCode, 200)
  t.match(page.body, `data-meta-url="${BASE}/meta"`)
  t.match(page.body, `data-page-url="${BASE}/pages/__page__"`)
  t.match(page.body, `data-save-url="${BASE}/slots/__slot__"`)
  t.match(page.body, '<script type="module" src="/admin/signature-assets/designer.js"></script>')
  t.notMatch(page.body, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script (the CSP forbids them)')
  for (const asset of ['designer.js', 'coordinates.js', 'designer.css']) {
    t.equal((await app.inject({ url: `/admin/signature-assets/${asset}`, headers: { cookie } })).statusCode, 200, `${asset} is served`)
  }
  const list = await app.inject({ url: '/admin/signature-templates', headers: { cookie } })
  for (const key of ['daily-time-record', 'payslip', 'contract']) t.match(list.body, `href="/admin/signature-templates/${key}/design"`, `${key} links its designer`)

  const missing = await app.inject({ url: '/admin/signature-templates/nope/design/meta', headers: { cookie, accept: 'application/json' } })
  t.equal(missing.statusCode, 404)
  t.equal(missing.json().code, 'ERR_TEMPLATE_NOT_FOUND')
})
