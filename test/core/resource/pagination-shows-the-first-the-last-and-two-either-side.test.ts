import fc from 'fast-check'
import t from 'tap'
import { pageWindow } from '../../../core/resource/table-model.ts'

/** The rule as written for people: those pages, in order, with a gap (null) wherever numbers are skipped. */
function expected(page: number, count: number): Array<number | null> {
  const shown = [1, count, page - 1, page, page + 1].filter((n, i, all) => n >= 1 && n <= count && all.indexOf(n) === i).sort((a, b) => a - b)
  return shown.flatMap((n, i) => (i > 0 && n - shown[i - 1]! > 1 ? [null, n] : [n]))
}

t.test('examples', async (t) => {
  t.same(pageWindow(1, 1), [1])
  t.same(pageWindow(1, 3), [1, 2, 3])
  t.same(pageWindow(5, 12), [1, null, 4, 5, 6, null, 12])
  t.same(pageWindow(12, 12), [1, null, 11, 12])
  t.same(pageWindow(3, 5), [1, 2, 3, 4, 5])
  t.same(pageWindow(9, 3), [1, null, 3], 'a page past the last (a stale link) still offers the first and the last')
})

t.test('any page of any count follows the rule', async () => {
  fc.assert(fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 70 }), (count, page) => {
    const got = JSON.stringify(pageWindow(page, count))
    return got === JSON.stringify(expected(page, count))
  }), { numRuns: 3000 })
})
