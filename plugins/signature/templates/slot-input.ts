import { z } from 'zod'

// What one slot may say about itself, whichever of the three shapes it came in.
export const slotFieldsSchema = z.strictObject({
  label: z.string().min(1).max(200).optional(),
  required: z.boolean().optional(),
  // Initial placement in PDF points (y from the bottom); seeds the designer until a row is saved.
  page: z.number().int().min(1).optional(),
  x: z.number().finite().min(0).optional(),
  y: z.number().finite().min(0).optional(),
  width: z.number().finite().positive().optional(),
  height: z.number().finite().positive().optional(),
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
