import t from 'tap'
import { buildTestApp, DEMO, login } from '../../../helpers/app.ts'
import { csrfFor } from '../../../helpers/pages.ts'

// The payslip's one page is A4: 595.28 x 841.89 pt.
const GOOD = { page: 1, x: 50, y: 60, width: 200, height: 40 }

// A box not wholly on a page as displayed gets the one code every entrance uses (issue 17):
// 422 ERR_PLACEMENT_OFF_PAGE, as /api/sign and finalize answer; a malformed body stays 400.
const OFF_PAGE = 'ERR_PLACEMENT_OFF_PAGE'

t.test('every refused save answers 400/404/422 with a code and writes no row', async (t) => {
  const app = await buildTestApp(t)
  const cookie = await login(app, DEMO.admin.email)
  const token = await csrfFor(app, cookie)
  const save = (slot: string, payload: unknown, template = 'payslip') => app.inject({
    method: 'POST', url: `/admin/signature-templates/${template}/design/slots/${slot}`,
    headers: { cookie, 'x-csrf-token': token, 'content-type': 'application/json', accept: 'application/json' },
    payload: JSON.stringify(payload),
  })

  const refusals: Array<[string, unknown, number, RegExp?, string?]> = [
    ['past the right edge', { ...GOOD, x: 400 }, 422, /leaves page 1 as displayed \(595.28 x 841.89 pt\)/, OFF_PAGE],
    ['past the top edge', { ...GOOD, y: 805 }, 422, /leaves page 1/, OFF_PAGE],
    ['negative x', { ...GOOD, x: -1 }, 400, /body\.x/],
    ['negative y', { ...GOOD, y: -0.5 }, 400, /body\.y/],
    ['zero width', { ...GOOD, width: 0 }, 400, /body\.width/],
    ['negative height', { ...GOOD, height: -10 }, 400, /body\.height/],
    ['a page that does not exist', { ...GOOD, page: 2 }, 422, /not page 2/, OFF_PAGE],
    ['page 0', { ...GOOD, page: 0 }, 400, /body\.page/],
    ['a fractional page', { ...GOOD, page: 1.5 }, 400, /body\.page/],
    ['an unknown key', { ...GOOD, rotate: 90 }, 400, /unknown field\(s\): rotate/],
    ['a missing key', { page: 1, x: 1, y: 1, width: 10 }, 400, /body\.height/],
    ['strings for numbers', { ...GOOD, x: '50' }, 400, /body\.x/],
    ['not an object', [GOOD], 400],
    ['bigger than the page', { page: 1, x: 0, y: 0, width: 600, height: 40 }, 422, /leaves page 1/, OFF_PAGE],
  ]
  for (const [what, payload, status, message, code = 'ERR_VALIDATION'] of refusals) {
    const response = await save('employee', payload)
    t.equal(response.statusCode, status, what)
    t.equal(response.json().code, code, `${what}: code`)
    if (message) t.match(response.json().message, message, `${what}: says why`)
  }

  const unknownSlot = await save('nobody', GOOD)
  t.equal(unknownSlot.statusCode, 404)
  t.equal(unknownSlot.json().code, 'ERR_SLOT_NOT_FOUND')
  const unknownTemplate = await save('employee', GOOD, 'nope')
  t.equal(unknownTemplate.statusCode, 404)
  t.equal(unknownTemplate.json().code, 'ERR_TEMPLATE_NOT_FOUND')

  t.same(await app.signature.slots.forTemplate('payslip'), [], 'nothing was written')
  t.same(await app.signature.slots.forTemplate('nope'), [])

  // Flush with the page's edges is on the page.
  const flush = await save('employee', { page: 1, x: 395.28, y: 801.89, width: 200, height: 40 })
  t.equal(flush.statusCode, 200, 'a box touching the top-right corner fits')
  t.equal((await app.signature.slots.forTemplate('payslip')).length, 1)
})
