import { parseInput } from '../../../core/http/validate.ts'
import { placementSchema, type Placement } from '../contracts/placement.ts'
import { assertOnPage } from '../pdf/box-on-page.ts'
import type { PageSize } from '../rasterizer/page-geometry.ts'

/** The body of a save: a Placement, nothing else. */
export const slotPlacementBody = placementSchema

/**
 * Parses a save (400 ERR_VALIDATION for its shape) and checks the box with the one on-page check
 * every entrance uses: big enough (422 ERR_BOX_TOO_SMALL), wholly on an existing page as displayed
 * (422 ERR_PLACEMENT_OFF_PAGE).
 */
export function parseSlotPlacement(body: unknown, pages: readonly PageSize[]): Placement {
  const placement = parseInput(slotPlacementBody, body, 'body')
  assertOnPage(placement, [...pages].sort((a, b) => a.page - b.page), 'body')
  return placement
}
