import { z } from 'zod'
import type { SlotDefinition } from '../contracts/slot-definition.ts'
import { ERR_PLACEMENT_OFF_PAGE, ERR_SLOT_UNKNOWN } from '../errors.ts'
import { assertBoxSize } from '../pdf/box-size.ts'
import type { Placement } from './signature-manager.ts'

const point = z.number().finite().min(0).max(14_400)
const size = z.number().finite().positive().max(14_400)

export const boxSchema = z.strictObject({
  page: z.number().int().min(1).max(10_000),
  x: point,
  y: point,
  width: size,
  height: size,
})

export const slotPlacementSchema = boxSchema.extend({ slot: z.string().min(1).max(120) }).strict()

export interface PageSize { width: number; height: number }

// Half a point of slack: the browser's px -> pt conversion rounds.
const SLACK = 0.5

/**
 * A box is at least MIN_BOX_POINTS on each side (else 422 ERR_BOX_TOO_SMALL) and lies on a real
 * page of the document, whole (else 422 ERR_PLACEMENT_OFF_PAGE). Every box from outside passes here
 * (/api/sign, the signer's finalize through normalizePlacements) or through assertBoxSize itself.
 */
export function assertOnPage(box: Omit<Placement, 'slot'>, pages: readonly PageSize[], label = 'the box'): void {
  assertBoxSize(box, label)
  const page = pages[box.page - 1]
  if (!page) throw ERR_PLACEMENT_OFF_PAGE(`${label}: the document has ${pages.length} page(s), not page ${box.page}`)
  if (box.x + box.width > page.width + SLACK || box.y + box.height > page.height + SLACK) {
    throw ERR_PLACEMENT_OFF_PAGE(`${label}: the box (${box.x}, ${box.y}, ${box.width} x ${box.height}) leaves page ${box.page} (${page.width} x ${page.height} pt)`)
  }
}

/**
 * Placements from the signer page checked against the template: a declared slot, each slot at
 * most once, a real page, the whole box on it. Returned normalized: in slot order, numbers
 * rounded to 1/100 pt and clamped into the page.
 */
export function normalizePlacements(
  input: ReadonlyArray<z.output<typeof slotPlacementSchema>>,
  slots: readonly SlotDefinition[],
  pages: readonly PageSize[],
): Placement[] {
  const order = new Map(slots.map((slot, index) => [slot.key, index]))
  const seen = new Set<string>()
  for (const p of input) {
    if (!order.has(p.slot)) throw ERR_SLOT_UNKNOWN(`The template declares no slot ${JSON.stringify(p.slot)}`)
    if (seen.has(p.slot)) throw ERR_SLOT_UNKNOWN(`The slot ${JSON.stringify(p.slot)} is placed more than once`)
    seen.add(p.slot)
    assertOnPage(p, pages, `slot ${p.slot}`)
  }
  const round = (n: number) => Math.round(n * 100) / 100
  return [...input]
    .sort((a, b) => order.get(a.slot)! - order.get(b.slot)!)
    .map((p) => {
      const page = pages[p.page - 1]!
      const width = round(Math.min(p.width, page.width))
      const height = round(Math.min(p.height, page.height))
      return {
        slot: p.slot,
        page: p.page,
        x: round(Math.min(p.x, page.width - width)),
        y: round(Math.min(p.y, page.height - height)),
        width,
        height,
      }
    })
}
