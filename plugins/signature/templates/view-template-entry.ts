import { z } from 'zod'
import { isPdfRendererClass, type PdfRendererClass } from '../contracts/pdf-renderer.ts'
import type { SlotInput } from '../contracts/slot-input.ts'

type Data = Record<string, unknown>

/** A template declared as data (config/signature.ts or registry.registerView()). */
export interface ViewTemplateEntry {
  label?: string
  /** Dotted view name, e.g. 'pdf.daily-time-record' -> <views>/pdf/daily-time-record.eta */
  view: string
  /** The data of the sample; a function defers building it until a sample is actually rendered. */
  sample_data?: Data | (() => Data | Promise<Data>)
  /** Data for the view at sign time; default `{ record }`. */
  data_resolver?: (record: unknown) => Data | Promise<Data>
  slots?: SlotInput
  /** A renderer class, or the name of one the registry knows; default: the registry's default. */
  renderer?: PdfRendererClass | string
}

const isFunction = (value: unknown): value is (...args: never[]) => unknown => typeof value === 'function'

// Slots are left as unknown here: normalizeSlots() checks them with messages per slot.
export const viewTemplateEntrySchema = z.strictObject({
  label: z.string().min(1).max(200).optional(),
  view: z.string({ error: 'required: the view that renders this template' }).regex(/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/, 'a dotted view name such as pdf.daily-time-record'),
  sample_data: z.union([z.record(z.string(), z.unknown()), z.custom<() => Data>(isFunction)], { error: 'an object, or a function returning one' }).optional(),
  data_resolver: z.custom<(record: unknown) => Data>(isFunction, { error: 'a function (record) => data' }).optional(),
  slots: z.unknown().optional(),
  renderer: z.union([z.string().min(1), z.custom<PdfRendererClass>(isPdfRendererClass)], { error: 'a PdfRenderer class (with static isAvailable()) or the name of a known renderer' }).optional(),
})
