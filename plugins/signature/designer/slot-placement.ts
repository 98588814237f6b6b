import { z } from 'zod'
import { ERR_VALIDATION } from '../../../core/http/errors.ts'
import { parseInput } from '../../../core/http/validate.ts'
import type { SlotPlacement } from '../database/template-slot-repository.ts'
import { assertBoxSize } from '../pdf/box-size.ts'
import type { PageSize } from '../rasterizer/page-geometry.ts'

const points = z.number().finite()

/** The body of a save: exactly these keys, in PDF points with y from the bottom of the page. */
export const slotPlacementBody = z.strictObject({
  page: z.number().int().min(1),
  x: points.min(0),
  y: points.min(0),
  width: points.positive(),
  height: points.positive(),
})

// Sizes from the geometry are rounded to 0.01 pt; a box flush with the edge must still fit.
const EDGE_TOLERANCE = 1e-6

/** Parses a save and checks the box lies wholly on an existing page (400 otherwise) and is big enough (422 ERR_BOX_TOO_SMALL). */
export function parseSlotPlacement(body: unknown, pages: readonly PageSize[]): SlotPlacement {
  const placement = parseInput(slotPlacementBody, body, 'body')
  assertBoxSize(placement, 'body')
  const size = pages.find((p) => p.page === placement.page)
  if (!size) {
    throw ERR_VALIDATION(`body.page: the document has pages 1-${pages.length}, not ${placement.page}`, {
      details: { issues: [{ path: 'body.page', message: `the document has pages 1-${pages.length}` }] },
    })
  }
  const issues: Array<{ path: string; message: string }> = []
  if (placement.x + placement.width > size.width + EDGE_TOLERANCE) issues.push({ path: 'body.x', message: `x + width (${placement.x + placement.width}) passes the page's right edge (${size.width} pt)` })
  if (placement.y + placement.height > size.height + EDGE_TOLERANCE) issues.push({ path: 'body.y', message: `y + height (${placement.y + placement.height}) passes the page's top edge (${size.height} pt)` })
  if (issues.length) throw ERR_VALIDATION(`The box is not wholly on page ${placement.page}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { details: { issues } })
  return placement
}
