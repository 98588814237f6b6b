import { currencyScale } from './field-values.ts'

// How a typed value reads on a page: a day in words ("27 Nov 2026", never 2026-11-27 or 11/27),
// money with its currency and decimals, a boolean as Yes or No. One place, so a table cell, a
// record's details and a read-only field say a value the same way.

const LOCALE = 'en-GB'
const DAY = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
const MOMENT = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' })
const money = new Map<string, Intl.NumberFormat>()

/** A calendar day or a wall-clock moment is printed as written: no time zone moves it to another day. */
function wallClock(value: unknown): Date | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value
  if (typeof value !== 'string') return null
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value)
  if (!m) return null
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)))
  return Number.isNaN(date.getTime()) ? null : date
}

export function formatDate(value: unknown): string {
  const date = wallClock(value)
  return date ? DAY.format(date) : value === null || value === undefined ? '' : String(value)
}

export function formatDateTime(value: unknown): string {
  const date = wallClock(value)
  if (!date) return value === null || value === undefined ? '' : String(value)
  // An instant (a Date, or a timestamp ending in Z) is said in UTC, and says so; a wall-clock
  // value from a datetime-local input is said as it was typed.
  const instant = value instanceof Date || (typeof value === 'string' && /(Z|[+-]00:?00)$/.test(value))
  return instant ? `${MOMENT.format(date)} UTC` : MOMENT.format(date)
}

export function formatMoney(value: unknown, currency: string): string {
  if (value === null || value === undefined || value === '') return ''
  const amount = Number(value)
  if (!Number.isFinite(amount)) return String(value)
  let format = money.get(currency)
  if (!format) money.set(currency, (format = new Intl.NumberFormat(LOCALE, { style: 'currency', currency })))
  return format.format(amount)
}

/** A stored boolean may come back as 1/0 (SQLite) or 't'/'f': all of them read as Yes or No. */
export function isTruthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't' || value === 'true'
}

export function formatBoolean(value: unknown): string {
  return isTruthy(value) ? 'Yes' : 'No'
}

/** The value an input shows for an amount: its decimals written out (340.5 -> '340.50'). */
export function decimalInputText(value: unknown, scale: number): string {
  if (value === null || value === undefined || value === '') return ''
  const amount = Number(value)
  return Number.isFinite(amount) ? amount.toFixed(scale) : String(value)
}

export function moneyInputText(value: unknown, currency: string): string {
  return decimalInputText(value, currencyScale(currency))
}
