// The designer's editing rules that need no page: rounding, snapping, the undo history, keyboard
// resizing and what "Save all" reports. Plain functions on boxes in PDF points (y from the bottom),
// served to the browser as an ES module and imported by the server's tests.

/** One decimal of a point (0.035 mm) is finer than anyone places a signature. */
export const roundPt = (value) => Math.round(value * 10) / 10

/** The placement part of a slot, the thing saved and undone. */
export function placementOf(slot) {
  return { page: slot.page, x: slot.x, y: slot.y, width: slot.width, height: slot.height }
}

export function samePlacement(a, b) {
  return a.page === b.page && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height
}

/** Keeps a box wholly on its page, rounded to a tenth of a point. */
export function clampToPage(box, page) {
  const width = Math.min(box.width, page.width)
  const height = Math.min(box.height, page.height)
  return {
    x: roundPt(Math.min(Math.max(box.x, 0), page.width - width)),
    y: roundPt(Math.min(Math.max(box.y, 0), page.height - height)),
    width: roundPt(width),
    height: roundPt(height),
  }
}

/** The candidate nearest to `value` within `reach`, else `value`. */
function nearest(value, candidates, reach) {
  let best = value
  let distance = reach
  for (const c of candidates) {
    const d = Math.abs(c - value)
    if (d <= distance) { best = c; distance = d }
  }
  return best
}

/**
 * Snaps the edges a gesture moves. `edges` names them: 'move' keeps the size and snaps the box's
 * left or right edge, and its bottom or top, to another box's edge within `reach` points, else to
 * the grid (the nearer of the two); a resize corner ('nw', 'se', ...) snaps only the edges it drags.
 * @param {{ x: number, y: number, width: number, height: number }} box
 * @param {{ grid: number, others?: Array<{ x: number, y: number, width: number, height: number }>, reach?: number }} options
 */
export function snapBox(box, edges, { grid, others = [], reach = 4 }) {
  const xs = others.flatMap((o) => [o.x, o.x + o.width])
  const ys = others.flatMap((o) => [o.y, o.y + o.height])
  const toGrid = (v) => Math.round(v / grid) * grid
  // { at, line }: where an edge lands, and whether on another box's edge (which wins over the grid).
  const snap = (v, lines) => {
    const byLine = nearest(v, lines, reach)
    return byLine !== v || lines.includes(v) ? { at: byLine, line: true } : { at: toGrid(v), line: false }
  }
  /** Of two ways to move a box (by its one edge or its other), a line first, then the shorter. */
  const better = (a, b, from) => (a.line !== b.line ? (a.line ? a : b) : Math.abs(a.at - from) <= Math.abs(b.at - from) ? a : b)
  if (edges === 'move') {
    const left = snap(box.x, xs)
    const right = snap(box.x + box.width, xs)
    const bottom = snap(box.y, ys)
    const top = snap(box.y + box.height, ys)
    return {
      ...box,
      x: better(left, { ...right, at: right.at - box.width }, box.x).at,
      y: better(bottom, { ...top, at: top.at - box.height }, box.y).at,
    }
  }
  let x0 = box.x
  let x1 = box.x + box.width
  let y0 = box.y
  let y1 = box.y + box.height
  // Screen corners: 'n' is the top edge (y1 in points), 's' the bottom (y0).
  if (edges.includes('w')) x0 = snap(x0, xs).at
  if (edges.includes('e')) x1 = snap(x1, xs).at
  if (edges.includes('n')) y1 = snap(y1, ys).at
  if (edges.includes('s')) y0 = snap(y0, ys).at
  return { ...box, x: x0, y: y0, width: x1 - x0, height: y1 - y0 }
}

/**
 * Keyboard resize: the box's top-left corner stays, its bottom-right corner follows the arrow
 * (ArrowRight wider, ArrowDown taller). Never below `min` points.
 */
export function resizeByKey(box, key, step, min) {
  const d = { ArrowRight: [step, 0], ArrowLeft: [-step, 0], ArrowDown: [0, step], ArrowUp: [0, -step] }[key]
  if (!d) return null
  const width = Math.max(box.width + d[0], min)
  const height = Math.max(box.height + d[1], min)
  // Points grow upwards: a taller box with the same top has a lower y.
  return { ...box, width, height, y: box.y + box.height - height }
}

/** The last `limit` placements before each change, newest last; undo answers the newest. */
export function createUndoHistory(limit = 50) {
  const entries = []
  return {
    /** Records where `key` was before a change; consecutive changes of one gesture share `gesture`. */
    record (key, before, gesture) {
      const last = entries[entries.length - 1]
      if (gesture !== undefined && last && last.key === key && last.gesture === gesture) return
      entries.push({ key, before: { ...before }, gesture })
      if (entries.length > limit) entries.shift()
    },
    undo () {
      return entries.pop() ?? null
    },
    get size () {
      return entries.length
    },
  }
}

/** What Save all says when it is done: every slot by name, so nobody reads a failure as a success. */
export function saveAllReport(results) {
  const saved = results.filter((r) => r.ok).map((r) => r.label)
  const failed = results.filter((r) => !r.ok)
  if (!results.length) return { ok: true, message: 'Nothing to save: no slot has changed.' }
  if (!failed.length) return { ok: true, message: `Saved ${saved.length === 1 ? '1 slot' : `${saved.length} slots`}: ${saved.join(', ')}.` }
  const notSaved = `Not saved: ${failed.map((r) => `${r.label} (${r.message})`).join('; ')}.`
  return { ok: false, message: saved.length ? `${notSaved} Saved: ${saved.join(', ')}.` : notSaved }
}
