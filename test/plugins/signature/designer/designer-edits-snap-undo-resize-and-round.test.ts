// The designer's editing rules (plugins/signature/public/designer-edit.js), the very file the
// browser runs: one decimal, snapping, the undo history, keyboard resize, Save all's report.
import t from 'tap'
import { clampToPage, createUndoHistory, resizeByKey, roundPt, saveAllReport, snapBox } from '../../../../plugins/signature/public/designer-edit.js'

const LETTER = { width: 612, height: 792 }

t.test('positions keep one decimal of a point', async (t) => {
  t.equal(roundPt(72.349), 72.3)
  t.equal(roundPt(72.36), 72.4)
  t.same(clampToPage({ x: 10.04, y: -3, width: 100.06, height: 40 }, LETTER), { x: 10, y: 0, width: 100.1, height: 40 }, 'and stay on the page')
  t.same(clampToPage({ x: 600, y: 780, width: 100, height: 40 }, LETTER), { x: 512, y: 752, width: 100, height: 40 })
})

t.test('snap: a moved box lands on the 5 pt grid, or on another box\'s edge within reach', async (t) => {
  t.same(snapBox({ x: 71.8, y: 93.4, width: 200, height: 40 }, 'move', { grid: 5 }), { x: 70, y: 95, width: 200, height: 40 })
  const other = { x: 300, y: 92, width: 204, height: 44 }
  // The left edge 2 pt from the other box's right edge snaps there, not to the grid.
  t.same(snapBox({ x: 506.2, y: 93, width: 50, height: 44 }, 'move', { grid: 5, others: [other] }), { x: 504, y: 92, width: 50, height: 44 })
  // Right edges line up too: the box's right edge 3 pt short of the other's.
  t.same(snapBox({ x: 251, y: 200.5, width: 250, height: 30 }, 'move', { grid: 5, others: [other] }).x, 254)
})

t.test('snap: a resize moves only the edges its corner drags', async (t) => {
  // 'se': the right edge and the bottom edge (y in points); left and top stay.
  t.same(snapBox({ x: 71, y: 63, width: 202, height: 49 }, 'se', { grid: 5 }), { x: 71, y: 65, width: 204, height: 47 })
  t.same(snapBox({ x: 71, y: 63, width: 202, height: 49 }, 'nw', { grid: 5 }), { x: 70, y: 63, width: 203, height: 47 })
})

t.test('keyboard resize: the top-left corner stays, never below the minimum', async (t) => {
  const box = { x: 100, y: 200, width: 50, height: 20 }
  t.same(resizeByKey(box, 'ArrowRight', 10, 8), { x: 100, y: 200, width: 60, height: 20 })
  t.same(resizeByKey(box, 'ArrowDown', 1, 8), { x: 100, y: 199, width: 50, height: 21 }, 'taller downwards: y goes down, the top stays at 220')
  t.same(resizeByKey(box, 'ArrowUp', 10, 8), { x: 100, y: 210, width: 50, height: 10 })
  t.same(resizeByKey({ ...box, height: 9 }, 'ArrowUp', 10, 8), { x: 100, y: 201, width: 50, height: 8 })
  t.equal(resizeByKey(box, 'Enter', 1, 8), null)
})

t.test('undo: the last changes in reverse; one drag is one step; the oldest drop off past the limit', async (t) => {
  const history = createUndoHistory(3)
  const at = (x: number) => ({ page: 1, x, y: 0, width: 10, height: 10 })
  history.record('a', at(1))
  history.record('a', at(2), 7)
  history.record('a', at(3), 7)
  history.record('b', at(4))
  t.equal(history.size, 3, 'the two pointer moves of gesture 7 are one step')
  t.same(history.undo(), { key: 'b', before: at(4), gesture: undefined })
  t.same(history.undo()!.before, at(2), 'the drag undoes to where it started')
  t.same(history.undo()!.before, at(1))
  t.equal(history.undo(), null)
  for (let i = 0; i < 5; i++) history.record('c', at(i))
  t.equal(history.size, 3)
  t.same(history.undo()!.before, at(4))
})

t.test('Save all names what was saved and what was not, and why', async (t) => {
  t.same(saveAllReport([]), { ok: true, message: 'Nothing to save: no slot has changed.' })
  t.same(saveAllReport([{ label: 'Employer', ok: true }]), { ok: true, message: 'Saved 1 slot: Employer.' })
  t.same(saveAllReport([{ label: 'Employer', ok: true }, { label: 'Witness', ok: false, message: 'off the page' }]),
    { ok: false, message: 'Not saved: Witness (off the page). Saved: Employer.' })
})
