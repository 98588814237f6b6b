// A resource over a real table: the table source searches, filters, sorts, pages and counts in
// SQL, and creates, updates and deletes through the resource's fields, on SQLite and PostgreSQL.
import t from 'tap'
import { sql, type Kysely } from 'kysely'
import { z } from 'zod'
import type { PublicUser } from '../../../core/auth/user-repository.ts'
import { EXACT_COUNT_LIMIT } from '../../../core/db/page-total.ts'
import { ERR_ACCESS_DENIED } from '../../../core/http/errors.ts'
import { defineResource, type ResourceListQuery } from '../../../core/resource/define-resource.ts'
import { tableSource, type TableAction } from '../../../core/resource/table-source.ts'
import { forEachEngine } from '../db/engines.ts'

interface Invoices {
  invoices: { id: string; number: string; customer: string; amount_cents: number; status: string }
}
type Invoice = Invoices['invoices']

const clerk: PublicUser = { id: 'c', name: 'Clerk', email: 'c@example.com', role: 'clerk' }
const accountant: PublicUser = { id: 'a', name: 'Acc', email: 'a@example.com', role: 'accountant' }

forEachEngine(t, 'table source', async (database, engine, t) => {
  const db = database.db as Kysely<Invoices>
  await db.schema.createTable('invoices')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('number', 'varchar(20)', (c) => c.notNull().unique())
    .addColumn('customer', 'varchar(120)', (c) => c.notNull())
    .addColumn('amount_cents', 'integer', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .execute()
  await sql`create index invoices_by_customer on invoices (customer, id)`.execute(db)

  const asked: Array<[string, TableAction, string | undefined]> = []
  let n = 0
  const source = tableSource({
    db, table: 'invoices', newId: () => `inv-${String(++n).padStart(3, '0')}`,
    authorize: (actor, action, record) => {
      asked.push([actor?.role ?? 'nobody', action, record?.id])
      if (action !== 'view' && actor?.role !== 'accountant') throw ERR_ACCESS_DENIED(`${actor?.role} may not ${action} invoices`)
    },
    fields: [
      { key: 'number', label: 'Number', type: 'text', schema: z.string().regex(/^\d{4}-\d{3}$/) },
      { key: 'customer', label: 'Customer', type: 'text', schema: z.string().min(1).max(120) },
      { key: 'amount_cents', label: 'Amount', type: 'number', schema: z.coerce.number().int().nonnegative() },
      { key: 'status', label: 'Status', type: 'select', options: () => [], schema: z.enum(['draft', 'sent', 'paid']) },
    ],
  })
  // It is a resource's source as any other.
  const resource = defineResource<Invoice>({
    slug: 'invoices', label: 'Invoices', recordLabel: 'invoice', title: (i) => i.number,
    columns: [{ key: 'number', label: 'Number', sortable: true }, { key: 'customer', label: 'Customer', sortable: true }, { key: 'amount_cents', label: 'Amount', sortable: true }],
    defaultSort: 'number', searchFields: ['number', 'customer'], perPage: 10,
    actions: { view: { permission: 'invoices:read' } }, source,
  })

  const customers = ['Ada 100%', 'Bo_Ltd', 'ada lovelace', 'Cleo']
  const made: Invoice[] = []
  for (let i = 0; i < 23; i++) {
    made.push(await resource.source.create!(accountant, { number: `2026-${String(i).padStart(3, '0')}`, customer: customers[i % 4]!, amount_cents: (i * 37) % 500, status: ['draft', 'sent', 'paid'][i % 3]! }))
  }
  t.match(made[0], { id: 'inv-001', number: '2026-000', customer: 'Ada 100%', amount_cents: 0, status: 'draft' })

  const query = (patch: Partial<ResourceListQuery<Invoice>>): ResourceListQuery<Invoice> => ({ page: 1, perPage: 10, searchFields: ['number', 'customer'], sort: { field: 'number', direction: 'asc' }, filters: {}, ...patch })
  const model = (q: ResourceListQuery<Invoice>) => {
    const needle = q.search?.toLowerCase()
    const rows = made
      .filter((i) => !needle || q.searchFields.some((f) => String(i[f]).toLowerCase().includes(needle)))
      .filter((i) => Object.entries(q.filters).every(([k, v]) => String(i[k as keyof Invoice]) === v))
      .sort((a, b) => (a[q.sort.field] < b[q.sort.field] ? -1 : a[q.sort.field] > b[q.sort.field] ? 1 : a.id < b.id ? -1 : 1) * (q.sort.direction === 'asc' ? 1 : -1))
    return { ids: rows.slice((q.page - 1) * q.perPage, q.page * q.perPage).map((i) => i.id), total: rows.length }
  }
  const cases = [
    query({}), query({ page: 3 }), query({ page: 9 }),
    query({ sort: { field: 'customer', direction: 'desc' }, perPage: 7, page: 2 }),
    query({ sort: { field: 'amount_cents', direction: 'asc' } }),
    query({ search: 'ADA' }), query({ search: '100%' }), query({ search: '_' }), query({ search: '2026-01' }),
    query({ search: 'ada', searchFields: ['number'] }),
    query({ filters: { status: 'paid' }, sort: { field: 'customer', direction: 'asc' } }),
    query({ filters: { status: 'sent' }, search: 'cleo' }),
  ]
  for (const q of cases) {
    const got = await resource.source.list(clerk, q)
    t.same({ ids: got.data.map((i) => i.id), total: got.total }, model(q), `list ${JSON.stringify({ ...q, searchFields: undefined })}`)
    t.equal(got.estimated, undefined, 'a small table is counted')
  }
  t.same(Object.keys((await resource.source.list(clerk, query({}))).data[0]!).sort(), ['amount_cents', 'customer', 'id', 'number', 'status'], 'records carry the columns, not the count')

  // Writes: the fields only, each parsed; a refusal or a bad value writes nothing.
  await t.rejects(resource.source.create!(accountant, { number: '2026-999', customer: 'X', amount_cents: 1, status: 'draft', id: 'mine' }), { code: 'ERR_VALIDATION' }, 'an id is not a field')
  await t.rejects(resource.source.create!(accountant, { number: 'nope', customer: 'X', amount_cents: 1, status: 'draft' }), { code: 'ERR_VALIDATION', message: /body\.number/ })
  await t.rejects(resource.source.create!(accountant, { number: '2026-001', customer: 'X', amount_cents: 1, status: 'draft' }), { code: 'ERR_CONFLICT' }, 'a taken number')
  await t.rejects(resource.source.create!(clerk, { number: '2026-998', customer: 'X', amount_cents: 1, status: 'draft' }), { code: 'ERR_ACCESS_DENIED' })
  t.equal((await resource.source.list(clerk, query({}))).total, 23, 'nothing was written')

  t.match(await resource.source.update!(accountant, 'inv-002', { status: 'paid', amount_cents: '250' }), { id: 'inv-002', status: 'paid', amount_cents: 250, customer: 'Bo_Ltd' }, 'a partial update, values parsed')
  await t.rejects(resource.source.update!(clerk, 'inv-002', { status: 'draft' }), { code: 'ERR_ACCESS_DENIED' })
  t.same(asked.at(-1), ['clerk', 'edit', 'inv-002'], 'the check sees the stored record')
  await t.rejects(resource.source.update!(accountant, 'inv-002', { status: 'lost' }), { code: 'ERR_VALIDATION' })
  await t.rejects(resource.source.update!(accountant, 'nope', { status: 'paid' }), { code: 'ERR_NOT_FOUND' })
  t.match(await resource.source.get(clerk, 'inv-002'), { status: 'paid', amount_cents: 250 })

  await t.rejects(resource.source.remove!(clerk, 'inv-003'), { code: 'ERR_ACCESS_DENIED' })
  await resource.source.remove!(accountant, 'inv-003')
  await t.rejects(resource.source.get(clerk, 'inv-003'), { code: 'ERR_NOT_FOUND' })
  await t.rejects(resource.source.removeMany!(accountant, ['inv-004', 'inv-003']), { code: 'ERR_NOT_FOUND' }, 'one of them is gone: none is deleted')
  t.ok(await resource.source.get(clerk, 'inv-004'))
  await resource.source.removeMany!(accountant, ['inv-004', 'inv-005'])
  t.equal((await resource.source.list(clerk, query({}))).total, 20)

  // Above the exact-count limit the total is PostgreSQL's estimate, flagged; SQLite counts.
  await sql`
    with recursive g(i) as (select 1 union all select i + 1 from g where i < ${sql.lit(EXACT_COUNT_LIMIT * 3)})
    insert into invoices (id, number, customer, amount_cents, status) select 'big-' || i, 'B-' || i, 'Customer ' || i, i, 'sent' from g`.execute(db)
  await sql`analyze`.execute(db)
  const big = await resource.source.list(clerk, query({ sort: { field: 'customer', direction: 'asc' } }))
  t.equal(big.data.length, 10)
  if (engine === 'postgres') {
    t.equal(big.estimated, true)
    t.ok(big.total > EXACT_COUNT_LIMIT * 2 && big.total < EXACT_COUNT_LIMIT * 4, `about ${EXACT_COUNT_LIMIT * 3 + 20} (${big.total})`)
  } else {
    t.same([big.total, big.estimated], [EXACT_COUNT_LIMIT * 3 + 20, undefined])
  }
  t.same(await resource.source.list(clerk, query({ search: 'customer 2999' })).then((r) => [r.total, r.estimated]), [1, undefined], 'a narrow search is counted')

  // A deep page finds its ids first and reads only its own rows (core/db/page-of-rows.ts): the
  // same rows in the same order as reading the table in that order.
  for (const [sort, direction] of [['customer', 'asc'], ['customer', 'desc'], ['id', 'desc'], ['amount_cents', 'asc']] as const) {
    const deep = query({ page: 150, perPage: 10, sort: { field: sort, direction } })
    const got = await resource.source.list(clerk, deep)
    let plain = db.selectFrom('invoices').select('id').orderBy(sql.ref(sort), direction)
    if (sort !== 'id') plain = plain.orderBy('id', direction)
    const expected = await plain.limit(10).offset(1490).execute()
    t.same(got.data.map((i) => i.id), expected.map((r) => r.id), `page 150 by ${sort} ${direction}`)
    t.same(Object.keys(got.data[0]!).sort(), ['amount_cents', 'customer', 'id', 'number', 'status'], 'whole records, nothing of the page\'s keys')
  }
})
