// The table source applies ternary flags and date ranges in SQL and stores a checkbox as the
// engine can (1/0 on SQLite, a boolean on PostgreSQL), read back as true or false; a read-only
// field is refused like any key the form does not have, nothing written.
import t from 'tap'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { isAppError } from '../../../core/http/errors.ts'
import type { ResourceListQuery } from '../../../core/resource/define-resource.ts'
import { booleanValue, dateValue } from '../../../core/resource/field-values.ts'
import { tableSource } from '../../../core/resource/table-source.ts'
import { forEachEngine } from '../db/engines.ts'

interface Tables { bills: { id: string; number: string; paid: boolean | number; issued_on: string; note: string } }
interface Bill { id: string; number: string; paid: boolean; issued_on: string; note: string }
const actor: PublicUser = { id: 'a', name: 'A', email: 'a@example.com', role: 'accountant' }

forEachEngine(t, 'flags, ranges and booleans', async (database, engine, t) => {
  const db = database.db as Kysely<Tables>
  await db.schema.createTable('bills')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('number', 'varchar(20)', (c) => c.notNull())
    .addColumn('paid', engine === 'postgres' ? 'boolean' : 'integer', (c) => c.notNull())
    .addColumn('issued_on', engine === 'postgres' ? 'date' : 'varchar(10)', (c) => c.notNull())
    .addColumn('note', 'varchar(100)', (c) => c.notNull().defaultTo(''))
    .execute()
  let n = 0
  const source = tableSource<Tables, 'bills', Bill>({
    db, table: 'bills', authorize: () => {}, newId: () => `b${++n}`,
    // PostgreSQL hands a date column back as a Date: the host's toRecord says it as a day.
    toRecord: (row) => ({ ...row, paid: row.paid as boolean, issued_on: typeof row.issued_on === 'string' ? row.issued_on : new Date(row.issued_on as unknown as Date).toISOString().slice(0, 10) }),
    fields: [
      { key: 'number', label: 'Number', type: 'text', schema: z.string().min(1) },
      { key: 'paid', label: 'Paid', type: 'checkbox', schema: booleanValue() },
      { key: 'issued_on', label: 'Issued', type: 'date', schema: dateValue() },
      { key: 'note', label: 'Note', type: 'text', readOnly: true, schema: z.string() },
    ],
  })
  const days = ['2026-01-15', '2026-01-31', '2026-02-01', '2026-02-28', '2026-03-01']
  for (const [i, day] of days.entries()) await source.create!(actor, { number: `N${i}`, paid: i % 2 === 0 ? 'true' : undefined, issued_on: day })
  const created = await source.get(actor, 'b1')
  t.same(created, { id: 'b1', number: 'N0', paid: true, issued_on: '2026-01-15', note: '' }, 'a checkbox reads back as a boolean')
  t.equal((await source.get(actor, 'b2')).paid, false, 'an unchecked box is false')

  const query = (extra: Partial<ResourceListQuery<Bill>>): ResourceListQuery<Bill> => ({ page: 1, perPage: 10, searchFields: ['number'], sort: { field: 'number', direction: 'asc' }, filters: {}, ...extra })
  const numbers = async (extra: Partial<ResourceListQuery<Bill>>) => (await source.list(actor, query(extra))).data.map((b) => b.number)
  t.same(await numbers({ flags: { paid: true } }), ['N0', 'N2', 'N4'], 'paid: yes')
  t.same(await numbers({ flags: { paid: false } }), ['N1', 'N3'], 'paid: no')
  t.same(await numbers({ ranges: { issued_on: { from: '2026-01-31', until: '2026-02-28' } } }), ['N1', 'N2', 'N3'], 'both bounds inclusive')
  t.same(await numbers({ ranges: { issued_on: { until: '2026-01-31' } } }), ['N0', 'N1'], 'until only: the whole last day')
  t.same(await numbers({ ranges: { issued_on: { from: '2026-02-28' } } }), ['N3', 'N4'], 'from only')
  t.same(await numbers({ flags: { paid: true }, ranges: { issued_on: { from: '2026-02-01' } } }), ['N2', 'N4'], 'combined')
  t.equal((await source.list(actor, query({ flags: { paid: true } }))).total, 3, 'the count is of the filtered rows')

  const updated = await source.update!(actor, 'b1', { paid: false })
  t.equal(updated.paid, false, 'updated to false')

  const before = await db.selectFrom('bills').selectAll().orderBy('id').execute()
  for (const bad of [{ number: 'X', issued_on: '2026-02-30' }, { number: 'X', issued_on: '2026-01-01', paid: 'maybe' }, { number: 'X', issued_on: '2026-01-01', note: 'forged' }]) {
    const error = await source.create!(actor, bad).then(() => null, (e: unknown) => e)
    t.ok(isAppError(error) && error.code === 'ERR_VALIDATION', `refused: ${JSON.stringify(bad)}`)
  }
  t.same(await db.selectFrom('bills').selectAll().orderBy('id').execute(), before, 'nothing written')
})
