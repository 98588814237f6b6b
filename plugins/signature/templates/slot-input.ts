import { z } from 'zod'
import { MIN_BOX_POINTS } from '../pdf/box-size.ts'

// What one slot may say about itself, whichever of the three shapes it came in.
export const slotFieldsSchema = z.strictObject({
  label: z.string().min(1).max(200).optional(),
  required: z.boolean().optional(),
  // Initial placement in PDF points (y from the bottom); seeds the designer until a row is saved.
  page: z.number().int().min(1).optional(),
  x: z.number().finite().min(0).optional(),
  y: z.number().finite().min(0).optional(),
  // The one minimum box size: a default below it would be refused only when a session freezes the document.
  width: z.number().finite().min(MIN_BOX_POINTS, `at least ${MIN_BOX_POINTS} pt`).optional(),
  height: z.number().finite().min(MIN_BOX_POINTS, `at least ${MIN_BOX_POINTS} pt`).optional(),
  signatory: z.string().min(1).max(120).optional(),
  role: z.string().min(1).max(120).optional(),
  order: z.number().int().min(1).optional(),
  // See SlotDefinitionInit: lifts "one person, one slot of a document" for this slot.
  signerMaySignOtherSlots: z.boolean().optional(),
})

export type SlotFields = z.input<typeof slotFieldsSchema>

/** Shape 3: a list item that names its key. */
export type KeyedSlot = SlotFields & { key: string }
/** Shape 2: slot key -> fields. */
export type SlotMap = Record<string, SlotFields>
/** Shape 1 is a bare key string; a list may mix all three. */
export type SlotInput = SlotMap | ReadonlyArray<string | KeyedSlot | SlotMap>
