// What a pointer drag and the arrow keys do to a box on a shown page: shared by the template
// designer (designer.js) and the document editor (document-editor.js), so a box moves, resizes and
// stays on its page the same way in both. Boxes are PDF points, y from the bottom of the page as
// displayed; pixels exist only during a drag (coordinates.js converts, from the page's size in
// points and the size it is shown at). Served to the browser as an ES module, imported by tests.
import { clampPx, ptToPx, pxToPt } from './coordinates.js'
import { resizeByKey } from './designer-edit.js'

/** Smallest box a drag leaves, in CSS pixels. */
export const MIN_PX = 8
/** Arrow keys move a box by 1 pt, with Shift by 10 pt. */
export const NUDGE_PT = 1
export const NUDGE_BIG_PT = 10

/** A corner dragged: the opposite corner stays put; edges stop at the page and at MIN_PX. */
export function resizePx (start, corner, dx, dy, shown) {
  let left = start.left
  let top = start.top
  let right = start.left + start.width
  let bottom = start.top + start.height
  if (corner.includes('w')) left = Math.min(Math.max(left + dx, 0), right - MIN_PX)
  if (corner.includes('e')) right = Math.max(Math.min(right + dx, shown.width), left + MIN_PX)
  if (corner.includes('n')) top = Math.min(Math.max(top + dy, 0), bottom - MIN_PX)
  if (corner.includes('s')) bottom = Math.max(Math.min(bottom + dy, shown.height), top + MIN_PX)
  return { left, top, width: right - left, height: bottom - top }
}

/**
 * Where a box is after the pointer moved (dx, dy) CSS px since the drag began at `startPx`:
 * mode 'move' keeps its size and its place on the page; a corner ('nw', 'se', ...) resizes.
 * Answers points on `pagePt` (the page's size in points), shown at `shown` CSS px.
 */
export function draggedBox (startPx, mode, dx, dy, pagePt, shown) {
  const px = mode === 'move'
    ? clampPx({ ...startPx, left: startPx.left + dx, top: startPx.top + dy }, shown, MIN_PX)
    : resizePx(startPx, mode, dx, dy, shown)
  return pxToPt(px, pagePt, shown)
}

/** The box at a pointer's place: `width` x `height` points centred on (leftPx, topPx) of the shown page, kept on it. */
export function boxAtPointer (leftPx, topPx, size, pagePt, shown) {
  const s = shown.width / pagePt.width
  const px = clampPx({ left: leftPx - (size.width * s) / 2, top: topPx - (size.height * s) / 2, width: size.width * s, height: size.height * s }, shown, MIN_PX)
  return pxToPt(px, pagePt, shown)
}

/** The CSS of a box drawn over the page shown at `shown` px. */
export function boxStyle (box, pagePt, shown) {
  const px = ptToPx(box, pagePt, shown)
  return `left: ${px.left}px; top: ${px.top}px; width: ${px.width}px; height: ${px.height}px`
}

/**
 * A key pressed on a focused box: arrows move it (Shift: 10 pt; ArrowUp raises y), with Alt they
 * move its bottom-right corner instead, never past the page's right and bottom edges. Answers the
 * new box in points (unclamped when moving: the caller keeps it on the page), or null for any
 * other key (and for Ctrl/Cmd with an arrow, which belong to the browser).
 */
export function nudgedBox (event, box, pagePt, minPt) {
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[event.key]
  if (!steps || event.ctrlKey || event.metaKey) return null
  const step = event.shiftKey ? NUDGE_BIG_PT : NUDGE_PT
  if (event.altKey) {
    const resized = resizeByKey(box, event.key, step, minPt)
    // Growing stops at the page's edge rather than pushing the box along.
    resized.width = Math.min(resized.width, pagePt.width - box.x)
    if (resized.y < 0) { resized.height += resized.y; resized.y = 0 }
    return resized
  }
  return { ...box, x: box.x + steps[0] * step, y: box.y + steps[1] * step }
}
