import { z } from 'zod'
import { placementSchema, type Placement } from '../contracts/placement.ts'
import type { SlotDefinition } from '../contracts/slot-definition.ts'
import { ERR_SLOT_UNKNOWN } from '../errors.ts'
import { assertOnPage, type DisplayedPageSize as PageSize } from '../pdf/box-on-page.ts'
import type { StampPlacement } from './signature-manager.ts'

/** A box given to /api/sign: a Placement. */
export const boxSchema = placementSchema

/** A box the signer page places on a template: a Placement and the slot it fills. */
export const slotPlacementSchema = placementSchema.extend({ slot: z.string().min(1).max(120) }).strict()

export type { PageSize }
/** The one on-page check (pdf/box-on-page.ts), re-exported where the signing entrances import it. */
export { assertOnPage }

/**
 * Placements from the signer page checked against the template: a declared slot, each slot at
 * most once, a real page, the whole box on it. Returned normalized: in slot order, numbers
 * rounded to 1/100 pt and clamped into the page.
 */
export function normalizePlacements(
  input: ReadonlyArray<z.output<typeof slotPlacementSchema>>,
  slots: readonly SlotDefinition[],
  pages: readonly PageSize[],
): StampPlacement[] {
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
