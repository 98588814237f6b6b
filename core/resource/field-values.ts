import { z } from 'zod'

// What a browser's form sends is text (and nothing at all for an unchecked box): these schemas turn
// it into the typed value a field stands for, with a message that says what was expected. Each is
// a zod schema like any other, so the form's strict allow-list, the table source's parse and
// parseInput (ERR_VALIDATION naming the field) all use it unchanged.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/

/** A calendar day that exists: 2026-02-30 matches the pattern and is still refused. */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value)
  if (!m) return false
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

function isDateTime(value: string): boolean {
  const m = DATETIME.exec(value)
  if (!m) return false
  return isCalendarDate(`${m[1]}-${m[2]}-${m[3]}`) && Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6] ?? 0) < 60
}

/**
 * '' (a field left empty) is "no value": absent for an optional field, "required" for the others.
 * So is null, an optional field's own output: a value parsed once (by the form) is parsed again
 * by the table source, and must pass unchanged.
 */
const blankToUndefined = (value: unknown) => (value === null || (typeof value === 'string' && value.trim() === '') ? undefined : value)

interface Bounds { min?: string; max?: string }

function bounded<T extends z.ZodType<string>>(schema: T, bounds: Bounds, what: string) {
  return schema
    .refine((v) => bounds.min === undefined || v >= bounds.min, `must be on or after ${bounds.min} (${what})`)
    .refine((v) => bounds.max === undefined || v <= bounds.max, `must be on or before ${bounds.max} (${what})`)
}

/** A day, as `<input type="date">` sends it: 'YYYY-MM-DD'. */
export function dateValue(options: Bounds & { optional?: false }): z.ZodType<string>
export function dateValue(options: Bounds & { optional: true }): z.ZodType<string | null>
export function dateValue(options?: Bounds): z.ZodType<string>
export function dateValue(options: Bounds & { optional?: boolean } = {}): z.ZodType<string | null> {
  const day = bounded(z.string({ error: 'is required' }).trim().refine(isCalendarDate, 'must be a date (YYYY-MM-DD)'), options, 'a date')
  return z.preprocess(blankToUndefined, options.optional ? day.optional().transform((v) => v ?? null) : day)
}

/** A moment on the wall clock, as `<input type="datetime-local">` sends it: 'YYYY-MM-DDTHH:mm' (seconds optional). */
export function dateTimeValue(options: Bounds & { optional?: false }): z.ZodType<string>
export function dateTimeValue(options: Bounds & { optional: true }): z.ZodType<string | null>
export function dateTimeValue(options?: Bounds): z.ZodType<string>
export function dateTimeValue(options: Bounds & { optional?: boolean } = {}): z.ZodType<string | null> {
  const moment = bounded(z.string({ error: 'is required' }).trim().refine(isDateTime, 'must be a date and time (YYYY-MM-DDTHH:MM)'), options, 'a date and time')
  return z.preprocess(blankToUndefined, options.optional ? moment.optional().transform((v) => v ?? null) : moment)
}

const TRUE = new Set(['true', 'on', '1', 'yes'])
const FALSE = new Set(['false', 'off', '0', 'no', ''])

/**
 * A checkbox or toggle: an unchecked box sends nothing, so a missing value is false. Anything but
 * the words a form or an API uses for on and off is refused rather than guessed.
 */
export function booleanValue(): z.ZodType<boolean> {
  return z.preprocess((value) => {
    if (value === undefined || typeof value === 'boolean') return value ?? false
    if (typeof value === 'string' && TRUE.has(value.toLowerCase())) return true
    if (typeof value === 'string' && FALSE.has(value.toLowerCase())) return false
    return value
  }, z.boolean({ error: 'must be on or off' }))
}

interface DecimalOptions { min?: number; max?: number; scale?: number; optional?: boolean }

/**
 * A decimal number as a person types it: '1234.5', '1,234.50', ' 12 '. Thousands separators are
 * dropped; more decimals than `scale` are refused (not rounded: 12.345 euros is a typo, not 12.35).
 */
export function decimalValue(options: DecimalOptions & { optional: true }): z.ZodType<number | null>
export function decimalValue(options?: DecimalOptions): z.ZodType<number>
export function decimalValue(options: DecimalOptions = {}): z.ZodType<number | null> {
  const scale = options.scale ?? 2
  if (!Number.isInteger(scale) || scale < 0 || scale > 10) throw new Error('decimalValue: scale must be 0..10')
  // A whole-number field (scale 0, the yen) takes no decimal point at all.
  const pattern = scale === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+(\\.\\d{1,${scale}})?$`)
  let number: z.ZodType<number, unknown> = z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().replace(/,/g, '') : typeof value === 'number' ? String(value) : value),
    z.string({ error: 'is required' })
      .refine((v) => /^-?\d+(\.\d+)?$/.test(v), 'must be a number like 1234.50')
      .refine((v) => pattern.test(v), scale === 0 ? 'must be a whole number' : `must have at most ${scale} decimal${scale === 1 ? '' : 's'}`)
      .transform(Number),
  ).pipe(z.number())
  if (options.min !== undefined) number = number.pipe(z.number().min(options.min, `must be at least ${options.min}`))
  if (options.max !== undefined) number = number.pipe(z.number().max(options.max, `must be at most ${options.max}`))
  return z.preprocess(blankToUndefined, options.optional ? number.optional().transform((v) => v ?? null) : number)
}

/** The decimals a currency has (EUR 2, JPY 0), from the runtime's own tables. */
export function currencyScale(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
}

/** An amount of money in major units (euros, not cents), with at most the currency's decimals. */
export function moneyValue(options: Omit<DecimalOptions, 'scale'> & { currency: string; optional: true }): z.ZodType<number | null>
export function moneyValue(options: Omit<DecimalOptions, 'scale'> & { currency: string }): z.ZodType<number>
export function moneyValue(options: Omit<DecimalOptions, 'scale'> & { currency: string }): z.ZodType<number | null> {
  return decimalValue({ ...options, scale: currencyScale(options.currency) })
}
