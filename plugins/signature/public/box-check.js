// The one on-page check of a box, as plain JavaScript so the designer's number fields refuse
// exactly what the server would (plugins/signature/pdf/box-on-page.ts throws on what this finds).

/** Smallest width and height of a box, in PDF points (README: "Limits"). */
export const MIN_BOX_POINTS = 8

/** How far a box may pass an edge, in points: the browser's px -> pt conversion rounds. */
export const EDGE_TOLERANCE_POINTS = 0.5

const round = (n) => Math.round(n * 100) / 100

/**
 * What is wrong with a box, or null. `pages[i]` is page i + 1 as displayed.
 * @returns {{ code: 'ERR_BOX_TOO_SMALL' | 'ERR_PLACEMENT_OFF_PAGE', message: string } | null}
 */
export function boxProblem(box, pages, label = 'the box') {
  if (!(box.width >= MIN_BOX_POINTS && box.height >= MIN_BOX_POINTS)) {
    return { code: 'ERR_BOX_TOO_SMALL', message: `${label}: ${box.width} x ${box.height} pt is smaller than the minimum of ${MIN_BOX_POINTS} x ${MIN_BOX_POINTS} pt` }
  }
  const page = Number.isInteger(box.page) ? pages[box.page - 1] : undefined
  if (!page) return { code: 'ERR_PLACEMENT_OFF_PAGE', message: `${label}: the document has ${pages.length} page(s), not page ${box.page}` }
  const t = EDGE_TOLERANCE_POINTS
  const inside = box.x >= -t && box.y >= -t && box.x + box.width <= page.width + t && box.y + box.height <= page.height + t
  if (!inside) {
    return { code: 'ERR_PLACEMENT_OFF_PAGE', message: `${label}: the box (${box.x}, ${box.y}, ${box.width} x ${box.height}) leaves page ${box.page} as displayed (${round(page.width)} x ${round(page.height)} pt)` }
  }
  return null
}
