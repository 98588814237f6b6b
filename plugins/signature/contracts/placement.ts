import { z } from 'zod'

/**
 * Where a box sits on a document: PDF points on the page as displayed, origin at its bottom-left,
 * y up. The one shape of a slot's default, a designer save, a saved row, a box given to /api/sign
 * or the signer's finalize, and a session's field.
 */
export interface Placement {
  /** 1-based. */
  page: number
  x: number
  y: number
  width: number
  height: number
}

// 14,400 pt (200 inches) is the largest page PDF allows; a page count past 10,000 is no document
// anybody signs. Whether the box also lies on the actual page is checked against that page.
const MAX_POINTS = 14_400
const coordinate = z.number().finite().min(0).max(MAX_POINTS)
const extent = z.number().finite().positive().max(MAX_POINTS)

/** The one schema of a Placement: exactly these keys. The box's minimum size is checked by the caller, with its own error. */
export const placementSchema = z.strictObject({
  page: z.number().int().min(1).max(10_000),
  x: coordinate,
  y: coordinate,
  width: extent,
  height: extent,
}) satisfies z.ZodType<Placement>

/** Just the five numbers of something that carries more (a saved row, a stamp). */
export function placementOf(box: Placement): Placement {
  return { page: box.page, x: box.x, y: box.y, width: box.width, height: box.height }
}

/** A slot's placement on its template: the designer's saved row wins; until one exists, the slot's default. */
export function placementFor(slot: { readonly placement: Placement }, saved: Placement | null | undefined): Placement {
  return placementOf(saved ?? slot.placement)
}
