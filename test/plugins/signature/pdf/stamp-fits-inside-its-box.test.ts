import fc from 'fast-check'
import t from 'tap'
import { fitImageInBox } from '../../../../plugins/signature/pdf/stamp-geometry.ts'

const size = fc.double({ min: 1, max: 5000, noNaN: true })
const coordinate = fc.double({ min: -2000, max: 2000, noNaN: true })

t.test('any image lands inside its box, centred, touching two opposite sides, with its aspect ratio kept', async (t) => {
  fc.assert(
    fc.property(size, size, coordinate, coordinate, size, size, (iw, ih, x, y, width, height) => {
      const placed = fitImageInBox({ width: iw, height: ih }, { x, y, width, height })
      const eps = 1e-6 * Math.max(width, height, Math.abs(x), Math.abs(y), 1)
      const inside =
        placed.x >= x - eps && placed.y >= y - eps && placed.x + placed.width <= x + width + eps && placed.y + placed.height <= y + height + eps
      const centred = Math.abs(placed.x - x - (x + width - placed.x - placed.width)) < 2 * eps && Math.abs(placed.y - y - (y + height - placed.y - placed.height)) < 2 * eps
      const touches = Math.abs(placed.width - width) < eps || Math.abs(placed.height - height) < eps
      const aspect = Math.abs(placed.width / placed.height - iw / ih) < 1e-6 * (iw / ih)
      return inside && centred && touches && aspect
    }),
  )
  t.pass('property held for every generated case')
})
