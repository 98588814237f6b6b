import fc from 'fast-check'
import t from 'tap'
import { clampPx, ptToPx, pxToPt } from '../../../../plugins/signature/public/coordinates.js'

const LETTER_LANDSCAPE = { width: 792, height: 612 }
const A4_LANDSCAPE = { width: 842, height: 595 }
const A4_PORTRAIT = { width: 595, height: 842 }

t.test('US Letter landscape shown at 144 DPI (2 px per pt): y flips from the bottom', async (t) => {
  const shown = { width: 1584, height: 1224 }
  // A box 100 px from the top-left, 300 x 80 px.
  t.same(pxToPt({ left: 100, top: 100, width: 300, height: 80 }, LETTER_LANDSCAPE, shown), { x: 50, y: 612 - 90, width: 150, height: 40 })
  // A signature line near the bottom: y = 72 pt, so its top is 612 - 72 - 36 = 504 pt from the top.
  t.same(ptToPx({ x: 72, y: 72, width: 180, height: 36 }, LETTER_LANDSCAPE, shown), { left: 144, top: 1008, width: 360, height: 72 })
})

t.test('A4 landscape shown at an arbitrary window width (no DPI assumed)', async (t) => {
  const shown = { width: 1000, height: 1000 * (595 / 842) }
  const pt = pxToPt({ left: 0, top: shown.height - 50, width: 100, height: 50 }, A4_LANDSCAPE, shown)
  t.equal(pt.x, 0)
  t.equal(pt.y, 0, 'a box on the bottom edge has y = 0')
  t.equal(pt.width, 84.2)
  t.equal(pt.height, 42.1)
})

t.test('pt -> px -> pt is the identity within 0.01 pt, in both orientations and any zoom', async (t) => {
  for (const page of [LETTER_LANDSCAPE, A4_LANDSCAPE, A4_PORTRAIT]) {
    fc.assert(fc.property(
      fc.double({ min: 0.2, max: 4, noNaN: true }),
      fc.double({ min: 0, max: page.width - 10, noNaN: true }),
      fc.double({ min: 0, max: page.height - 10, noNaN: true }),
      (zoom, x, y) => {
        const shown = { width: page.width * zoom, height: page.height * zoom }
        const box = { x, y, width: 10, height: 10 }
        const back = pxToPt(ptToPx(box, page, shown), page, shown)
        return Math.abs(back.x - x) <= 0.01 && Math.abs(back.y - y) <= 0.01 && Math.abs(back.width - 10) <= 0.01
      },
    ), { numRuns: 300 })
  }
  t.pass('900 random boxes')
})

t.test('a box cannot be dragged off the page', async (t) => {
  const shown = { width: 800, height: 600 }
  t.same(clampPx({ left: -40, top: 590, width: 100, height: 50 }, shown), { left: 0, top: 550, width: 100, height: 50 })
  t.same(clampPx({ left: 790, top: -5, width: 100, height: 2 }, shown), { left: 700, top: 0, width: 100, height: 8 }, 'and keeps a minimum size')
  t.same(clampPx({ left: 0, top: 0, width: 5000, height: 50 }, shown).width, 800)
})
