// The one on-page check of a box, wherever one is accepted: the designer's save, the signer's
// finalize, /api/sign, a session's fields, and again in the engine right before it stamps or
// creates a field. Pages are measured as displayed (see page-frame.ts). One code
// (ERR_PLACEMENT_OFF_PAGE), one tolerance, one minimum size (assertBoxSize).
import { ERR_PLACEMENT_OFF_PAGE } from '../errors.ts'
import { assertBoxSize } from './box-size.ts'

/** How far a box may pass an edge, in points: the browser's px -> pt conversion rounds. */
export const EDGE_TOLERANCE_POINTS = 0.5

export interface DisplayedPageSize { width: number; height: number }

export interface PagedBox { page: number; x: number; y: number; width: number; height: number }

/** `pages[i]` is page i + 1 as displayed. Throws ERR_BOX_TOO_SMALL or ERR_PLACEMENT_OFF_PAGE (both 422). */
export function assertOnPage(box: PagedBox, pages: readonly DisplayedPageSize[], label = 'the box'): void {
  assertBoxSize(box, label)
  const page = Number.isInteger(box.page) ? pages[box.page - 1] : undefined
  if (!page) throw ERR_PLACEMENT_OFF_PAGE(`${label}: the document has ${pages.length} page(s), not page ${box.page}`)
  const t = EDGE_TOLERANCE_POINTS
  const inside = box.x >= -t && box.y >= -t && box.x + box.width <= page.width + t && box.y + box.height <= page.height + t
  if (!inside) {
    throw ERR_PLACEMENT_OFF_PAGE(`${label}: the box (${box.x}, ${box.y}, ${box.width} x ${box.height}) leaves page ${box.page} as displayed (${round(page.width)} x ${round(page.height)} pt)`)
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100
}
