// The one on-page check of a box, wherever one is accepted: the designer's save, the signer's
// finalize, /api/sign, a session's fields, and again in the engine right before it stamps or
// creates a field. Pages are measured as displayed (see page-frame.ts). One code
// (ERR_PLACEMENT_OFF_PAGE), one tolerance, one minimum size: public/box-check.js, which the
// designer's number fields run before anything is sent.
import { boxProblem, EDGE_TOLERANCE_POINTS } from '../public/box-check.js'
import { ERR_PLACEMENT_OFF_PAGE } from '../errors.ts'
import { assertBoxSize } from './box-size.ts'

export { EDGE_TOLERANCE_POINTS }

export interface DisplayedPageSize { width: number; height: number }

export interface PagedBox { page: number; x: number; y: number; width: number; height: number }

/** `pages[i]` is page i + 1 as displayed. Throws ERR_BOX_TOO_SMALL or ERR_PLACEMENT_OFF_PAGE (both 422). */
export function assertOnPage(box: PagedBox, pages: readonly DisplayedPageSize[], label = 'the box'): void {
  assertBoxSize(box, label)
  const problem = boxProblem(box, pages, label)
  if (problem) throw ERR_PLACEMENT_OFF_PAGE(problem.message)
}
