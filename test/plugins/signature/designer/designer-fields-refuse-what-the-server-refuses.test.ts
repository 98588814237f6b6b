// The designer's number fields check a box with public/box-check.js; the server's assertOnPage
// throws on exactly what it finds, with the same message. One check, two places.
import fc from 'fast-check'
import t from 'tap'
import { boxProblem } from '../../../../plugins/signature/public/box-check.js'
import { assertOnPage } from '../../../../plugins/signature/pdf/box-on-page.ts'

const PAGES = [{ width: 595.28, height: 841.89 }, { width: 842, height: 595 }]

function serverSays(box: { page: number; x: number; y: number; width: number; height: number }): { code: string; message: string } | null {
  try {
    assertOnPage(box, PAGES, 'Employee')
    return null
  } catch (error) {
    const e = error as { code: string; message: string }
    return { code: e.code, message: e.message }
  }
}

t.test('examples: too small, off the page, a missing page, inside within the tolerance', async (t) => {
  t.match(boxProblem({ page: 1, x: 10, y: 10, width: 7.9, height: 40 }, PAGES, 'Employee'), { code: 'ERR_BOX_TOO_SMALL' })
  t.match(boxProblem({ page: 1, x: 500, y: 10, width: 100, height: 40 }, PAGES, 'Employee'), { code: 'ERR_PLACEMENT_OFF_PAGE', message: /leaves page 1/ })
  t.match(boxProblem({ page: 3, x: 0, y: 0, width: 100, height: 40 }, PAGES, 'Employee'), { code: 'ERR_PLACEMENT_OFF_PAGE', message: /has 2 page\(s\), not page 3/ })
  t.equal(boxProblem({ page: 2, x: -0.4, y: 0, width: 842.8, height: 40 }, PAGES, 'Employee'), null)
})

t.test('any box: the browser refuses exactly what the server refuses, with the same words', async (t) => {
  fc.assert(fc.property(
    fc.integer({ min: 0, max: 3 }), fc.double({ min: -50, max: 900, noNaN: true }), fc.double({ min: -50, max: 900, noNaN: true }),
    fc.double({ min: 0, max: 900, noNaN: true }), fc.double({ min: 0, max: 900, noNaN: true }),
    (page, x, y, width, height) => {
      const box = { page, x, y, width, height }
      const browser = boxProblem(box, PAGES, 'Employee')
      const server = serverSays(box)
      if (browser === null || server === null) return browser === server
      return browser.code === server.code && server.message.includes(browser.message)
    },
  ), { numRuns: 2000 })
  t.pass('2000 boxes judged alike')
})
