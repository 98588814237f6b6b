// Each field type's value schema turns what a browser sends (text, nothing for an unchecked box)
// into its typed value, and refuses anything else with ERR_VALIDATION naming the field and saying
// what was expected.
import t from 'tap'
import { z } from 'zod'
import { isAppError } from '../../../core/http/errors.ts'
import { parseInput } from '../../../core/http/validate.ts'
import { booleanValue, dateTimeValue, dateValue, decimalValue, moneyValue } from '../../../core/resource/field-values.ts'
import { formatBoolean, formatDate, formatDateTime, formatMoney } from '../../../core/resource/display-value.ts'

/** The one issue parseInput reports for `value` in field `field`, or null when it is accepted. */
function refusal(schema: z.ZodType, value: unknown): { code: string; path: string; message: string } | null {
  try {
    parseInput(z.object({ field: schema }).strict(), value === undefined ? {} : { field: value }, 'body')
    return null
  } catch (error) {
    if (!isAppError(error)) throw error
    const issue = (error.details as { issues: Array<{ path: string; message: string }> }).issues[0]!
    return { code: error.code, path: issue.path, message: issue.message }
  }
}
const parsed = (schema: z.ZodType, value: unknown) => parseInput(z.object({ field: schema }).strict(), value === undefined ? {} : { field: value }, 'body').field

t.test('date: a real calendar day as YYYY-MM-DD', async (t) => {
  t.equal(parsed(dateValue(), '2026-11-27'), '2026-11-27')
  t.equal(parsed(dateValue(), ' 2024-02-29 '), '2024-02-29', 'a leap day, trimmed')
  for (const bad of ['2026-02-30', '2025-02-29', '27/11/2026', '2026-13-01', 'tomorrow', '2026-11-27T10:00']) {
    t.match(refusal(dateValue(), bad), { code: 'ERR_VALIDATION', path: 'body.field', message: 'must be a date (YYYY-MM-DD)' }, `refuses ${bad}`)
  }
  t.match(refusal(dateValue(), ''), { code: 'ERR_VALIDATION', message: 'is required' }, 'empty is missing')
  t.match(refusal(dateValue(), undefined), { code: 'ERR_VALIDATION', message: 'is required' }, 'absent is missing')
  t.equal(parsed(dateValue({ optional: true }), ''), null, 'optional: empty is no date')
  t.match(refusal(dateValue({ min: '2026-01-01' }), '2025-12-31'), { message: /on or after 2026-01-01/ }, 'a lower bound')
  t.match(refusal(dateValue({ max: '2026-12-31' }), '2027-01-01'), { message: /on or before 2026-12-31/ }, 'an upper bound')
})

t.test('datetime: what <input type=datetime-local> sends', async (t) => {
  t.equal(parsed(dateTimeValue(), '2026-11-27T14:05'), '2026-11-27T14:05')
  t.equal(parsed(dateTimeValue(), '2026-11-27T14:05:30'), '2026-11-27T14:05:30', 'seconds are allowed')
  for (const bad of ['2026-11-27', '2026-11-27T24:00', '2026-11-27T10:60', '2026-02-30T10:00', 'now']) {
    t.match(refusal(dateTimeValue(), bad), { code: 'ERR_VALIDATION', message: 'must be a date and time (YYYY-MM-DDTHH:MM)' }, `refuses ${bad}`)
  }
  t.equal(parsed(dateTimeValue({ optional: true }), ''), null)
})

t.test('checkbox and toggle: an unchecked box sends nothing, which is false', async (t) => {
  t.equal(parsed(booleanValue(), undefined), false, 'absent')
  t.equal(parsed(booleanValue(), 'true'), true, 'the value the form sends')
  t.equal(parsed(booleanValue(), 'on'), true, "a browser's default value")
  t.equal(parsed(booleanValue(), 'false'), false)
  t.equal(parsed(booleanValue(), true), true, 'JSON true')
  for (const bad of ['maybe', '2', 'checked']) t.match(refusal(booleanValue(), bad), { code: 'ERR_VALIDATION', message: 'must be on or off' }, `refuses ${bad}`)
})

t.test('decimal and money: typed as people type them, never rounded behind their back', async (t) => {
  t.equal(parsed(decimalValue(), '1234.5'), 1234.5)
  t.equal(parsed(decimalValue(), ' 1,234.50 '), 1234.5, 'thousands separators and spaces')
  t.equal(parsed(decimalValue(), 12), 12, 'a JSON number')
  t.match(refusal(decimalValue(), '12.345'), { code: 'ERR_VALIDATION', message: 'must have at most 2 decimals' }, 'a third decimal is a typo, not rounded')
  for (const bad of ['lots', '1e5', '12.', '0x10', '€12']) t.match(refusal(decimalValue(), bad), { code: 'ERR_VALIDATION', message: 'must be a number like 1234.50' }, `refuses ${bad}`)
  t.match(refusal(decimalValue({ min: 0.01 }), '0'), { message: 'must be at least 0.01' })
  t.match(refusal(decimalValue({ max: 100 }), '100.01'), { message: 'must be at most 100' })
  t.match(refusal(decimalValue({ scale: 0 }), '1.5'), { message: 'must be a whole number' })
  t.equal(parsed(moneyValue({ currency: 'EUR' }), '99.90'), 99.9)
  t.match(refusal(moneyValue({ currency: 'JPY' }), '100.5'), { message: 'must be a whole number' }, 'yen have no decimals')
  t.match(refusal(moneyValue({ currency: 'EUR' }), ''), { message: 'is required' })
  t.equal(parsed(moneyValue({ currency: 'EUR', optional: true }), ''), null)
})

t.test("each schema accepts its own output (the form parses a value, the table source parses it again)", async (t) => {
  const cases: Array<[string, z.ZodType, unknown]> = [
    ['date', dateValue(), '2026-11-27'], ['optional date left empty', dateValue({ optional: true }), ''],
    ['datetime', dateTimeValue(), '2026-11-27T14:05'], ['optional datetime left empty', dateTimeValue({ optional: true }), ''],
    ['checkbox', booleanValue(), 'on'], ['unchecked', booleanValue(), undefined],
    ['decimal', decimalValue(), '1,234.50'], ['optional money left empty', moneyValue({ currency: 'EUR', optional: true }), ''],
  ]
  for (const [name, schema, sent] of cases) {
    const once = parsed(schema, sent)
    t.same(parsed(schema, once), once, `${name}: ${JSON.stringify(once)} parses to itself`)
  }
})

t.test('values read in words: a day, a moment, an amount, yes or no', async (t) => {
  t.equal(formatDate('2026-11-27'), '27 Nov 2026')
  t.equal(formatDate('2026-01-01'), '1 Jan 2026', 'no time zone moves a day to the day before')
  t.equal(formatDateTime('2026-11-27T14:05'), '27 Nov 2026, 14:05')
  t.equal(formatDateTime('2026-11-27T14:05:09.123Z'), '27 Nov 2026, 14:05 UTC', 'an instant says its zone')
  t.equal(formatDate(null), '')
  t.equal(formatDate('not a date'), 'not a date', 'shown as it is rather than hidden')
  t.equal(formatMoney(1200, 'EUR'), '€1,200.00')
  t.equal(formatMoney(340.5, 'USD'), 'US$340.50')
  t.equal(formatMoney(1200, 'JPY'), 'JP¥1,200')
  t.equal(formatBoolean(true), 'Yes')
  t.equal(formatBoolean(1), 'Yes', 'SQLite 1')
  t.equal(formatBoolean(0), 'No')
  t.equal(formatBoolean(false), 'No')
})
