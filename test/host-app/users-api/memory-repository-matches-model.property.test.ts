import fc from 'fast-check'
import t from 'tap'
import type { UserRecord, UserSortField } from '../../../core/auth/user-repository.ts'
import { MemoryUserRepository } from '../../../host-app/users/memory-user-repository.ts'

// The repository keeps sorted indexes up to date on every write; a naive model that filters and
// sorts from scratch must always give the same pages.
const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true })
const names = fc.constantFrom('Ada', 'ada', 'Bo', 'Émile', 'Zoë', 'Max 2', 'Max 10', 'sam')
const op = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), name: names, role: fc.constantFrom('admin', 'staff') }),
  fc.record({ kind: fc.constant('update' as const), pick: fc.nat(), name: names, role: fc.constantFrom('admin', 'staff', 'manager') }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('list' as const),
    field: fc.constantFrom<UserSortField>('name', 'email', 'role'),
    direction: fc.constantFrom('asc' as const, 'desc' as const),
    search: fc.option(fc.constantFrom('a', 'MAX', 'zoë', 'example', '@', 'sam\nuser'), { nil: undefined }),
    searchFields: fc.option(fc.subarray(['name', 'email'] as const), { nil: undefined }),
    role: fc.option(fc.constantFrom('admin', 'staff', 'manager'), { nil: undefined }),
    page: fc.integer({ min: 1, max: 4 }),
    perPage: fc.integer({ min: 1, max: 5 }),
  }),
)

t.test('list() agrees with a from-scratch sort and filter after any sequence of writes', async (t) => {
  await fc.assert(fc.asyncProperty(fc.array(op, { maxLength: 40 }), async (ops) => {
    const repo = new MemoryUserRepository()
    const model = new Map<string, UserRecord>()
    let n = 0
    for (const o of ops) {
      const ids = [...model.keys()]
      if (o.kind === 'create') {
        const u = await repo.create({ name: o.name, email: `user${n++}@example.com`, role: o.role, passwordHash: 'h' })
        model.set(u.id, u)
      } else if (o.kind === 'update' && ids.length) {
        const id = ids[o.pick % ids.length]!
        model.set(id, (await repo.update(id, { name: o.name, role: o.role }))!)
      } else if (o.kind === 'delete' && ids.length) {
        const id = ids[o.pick % ids.length]!
        await repo.delete(id)
        model.delete(id)
      } else if (o.kind === 'list') {
        const got = await repo.list({ page: o.page, perPage: o.perPage, sort: { field: o.field, direction: o.direction }, search: o.search, searchFields: o.searchFields, ...(o.role ? { role: o.role } : {}) })
        const needle = o.search?.toLowerCase()
        const fields = o.searchFields ?? ['name', 'email']
        const rows = [...model.values()]
          .filter((u) => !o.role || u.role === o.role)
          .filter((u) => !needle || fields.some((field) => u[field].toLowerCase().includes(needle)))
          .sort((a, b) => collator.compare(a[o.field], b[o.field]) || (o.field === 'name' ? 0 : collator.compare(a.name, b.name)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        if (o.direction === 'desc') rows.reverse()
        const want = rows.slice((o.page - 1) * o.perPage, o.page * o.perPage)
        if (got.total !== rows.length || JSON.stringify(got.data) !== JSON.stringify(want)) return false
      }
    }
    return true
  }), { numRuns: 300 })
  t.pass('300 random sequences of writes and lists')
})
