// The gestures the template designer and the document editor share (plugins/signature/public/
// box-gestures.js, the very file both pages run): a drag moves or resizes a box and keeps it on
// the page, a box dropped from the palette is centred on the pointer, the arrow keys nudge and
// Alt resizes, all in points with y from the bottom, whatever size the page is shown at.
import t from 'tap'
import { boxAtPointer, boxStyle, draggedBox, nudgedBox, resizePx } from '../../../../plugins/signature/public/box-gestures.js'

const A4 = { width: 595.28, height: 841.89 }
// Shown at half size: 1 pt = 0.5 px (a 390 px phone shows about this).
const HALF = { width: 297.64, height: 420.945 }

t.test('a drag moves the box by the pointer\'s distance in points, y flipped, and never off the page', async (t) => {
  const start = { left: 50, top: 100, width: 90, height: 27 }
  t.same(draggedBox(start, 'move', 10, 20, A4, HALF), { x: 120, y: 547.89, width: 180, height: 54 }, "10 px right = 20 pt further right; 20 px down = 40 pt lower")
  t.same(draggedBox(start, 'move', -500, -500, A4, HALF), { x: 0, y: 787.89, width: 180, height: 54 }, 'stops at the top-left corner')
  t.same(draggedBox(start, 'move', 5000, 5000, A4, HALF), { x: 415.28, y: 0, width: 180, height: 54 }, 'and at the bottom-right one')
})

t.test('a corner drag resizes from the opposite corner, never below 8 px or past the page', async (t) => {
  const start = { left: 50, top: 100, width: 90, height: 27 }
  t.same(resizePx(start, 'se', 10, 5, HALF), { left: 50, top: 100, width: 100, height: 32 })
  t.same(resizePx(start, 'nw', 200, 200, HALF), { left: 132, top: 119, width: 8, height: 8 }, 'the far corner stays, the box keeps 8 px')
  t.same(resizePx(start, 'ne', 1000, -1000, HALF), { left: 50, top: 0, width: 247.64, height: 127 })
  t.same(draggedBox(start, 'se', 10, 5, A4, HALF), { x: 100, y: 577.89, width: 200, height: 64 })
})

t.test('a box dropped from the palette is centred on the pointer and kept on the page', async (t) => {
  t.same(boxAtPointer(100, 200, { width: 180, height: 54 }, A4, HALF), { x: 110, y: 414.89, width: 180, height: 54 })
  t.same(boxAtPointer(2, 2, { width: 180, height: 54 }, A4, HALF), { x: 0, y: 787.89, width: 180, height: 54 }, 'at the corner: inside it')
})

t.test('boxes are drawn where their points are, at the shown size', async (t) => {
  t.equal(boxStyle({ x: 20, y: 414.89, width: 180, height: 54 }, A4, HALF), 'left: 10px; top: 186.5px; width: 90px; height: 27px')
})

t.test('keys: arrows move by 1 pt (Shift 10), ArrowUp raises y; Alt resizes up to the page\'s edge', async (t) => {
  const box = { page: 2, x: 100, y: 200, width: 50, height: 20 }
  t.same(nudgedBox({ key: 'ArrowUp' }, box, A4, 8), { ...box, y: 201 })
  t.same(nudgedBox({ key: 'ArrowLeft', shiftKey: true }, box, A4, 8), { ...box, x: 90 })
  t.same(nudgedBox({ key: 'ArrowRight', altKey: true }, box, A4, 8), { ...box, width: 51 })
  t.same(nudgedBox({ key: 'ArrowRight', altKey: true, shiftKey: true }, { ...box, x: 560 }, { width: 612, height: 792 }, 8), { ...box, x: 560, width: 52 }, 'no wider than the page leaves')
  t.same(nudgedBox({ key: 'ArrowDown', altKey: true, shiftKey: true }, { ...box, y: 4 }, A4, 8), { ...box, y: 0, height: 24 }, 'no lower than its bottom')
  t.equal(nudgedBox({ key: 'ArrowUp', ctrlKey: true }, box, A4, 8), null, 'Ctrl+arrow belongs to the browser')
  t.equal(nudgedBox({ key: 'Enter' }, box, A4, 8), null)
})
