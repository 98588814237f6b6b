import { z } from 'zod'
import { placementSchema } from './placement.ts'
import type { Slot } from './slot.ts'
import type { SignatoryResolver, SlotDefinition } from './slot-definition.ts'
import { MIN_BOX_POINTS } from '../pdf/box-size.ts'

const isFunction = (value: unknown): value is (...args: never[]) => unknown => typeof value === 'function'
const atLeastMinimum = (n: number | undefined) => n === undefined || n >= MIN_BOX_POINTS

// What one slot may say about itself, whichever shape it came in (a literal or Slot.make()).
// Its initial placement is any part of a Placement, in PDF points (y up); it seeds the designer
// until a row is saved.
export const slotFieldsSchema = z.strictObject({
  label: z.string().min(1).max(200).optional(),
  required: z.boolean().optional(),
  ...placementSchema.partial().shape,
  // A record field holding the signer's user id, or a function of the record giving it.
  signatory: z.union([z.string().min(1).max(120), z.custom<SignatoryResolver>(isFunction)], { error: 'a field name of the record, or a function (record) => user id' }).optional(),
  role: z.string().min(1).max(120).optional(),
  order: z.number().int().min(1).optional(),
  // See SlotDefinitionInit: lifts "one person, one slot of a document" for this slot.
  signerMaySignOtherSlots: z.boolean().optional(),
})
  // The one minimum box size: a default below it would be refused only when a session freezes the document.
  .refine((slot) => atLeastMinimum(slot.width), { path: ['width'], message: `at least ${MIN_BOX_POINTS} pt` })
  .refine((slot) => atLeastMinimum(slot.height), { path: ['height'], message: `at least ${MIN_BOX_POINTS} pt` })

export type SlotFields = z.input<typeof slotFieldsSchema>

/** A list item that names its key: `{ key: 'employee', label: 'Employee', page: 1, ... }`. */
export type KeyedSlot = SlotFields & { key: string }
/** Slot key -> fields. */
export type SlotMap = Record<string, SlotFields>
/**
 * What a template's slots() or a config entry's `slots` may be: one map, or a list mixing bare
 * keys, keyed literals, maps, Slot.make() builders and SlotDefinitions.
 */
export type SlotInput = SlotMap | ReadonlyArray<string | KeyedSlot | SlotMap | Slot | SlotDefinition>
