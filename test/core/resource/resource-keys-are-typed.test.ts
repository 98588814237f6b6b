import t from 'tap'
import { z } from 'zod'
import { Panel } from '../../../core/panel/panel.ts'
import { defineResource, type AnyResource, type ResourceDefinition } from '../../../core/resource/define-resource.ts'

// Checked by `tsc --noEmit` (test/ is in tsconfig's include): each @ts-expect-error line must be
// an error, or the compile fails. The runtime assertions only keep tap from calling this empty.

type Book = { id: string; title: string; pages: number }
const source: ResourceDefinition<Book>['source'] = {
  list: async () => ({ data: [], total: 0 }),
  get: async (_actor, id) => ({ id, title: 't', pages: 1 }),
  update: async (_actor, id) => ({ id, title: 't', pages: 1 }),
  remove: async () => {},
}
const book = (patch: Partial<ResourceDefinition<Book>> = {}) => defineResource<Book>({
  slug: 'books', label: 'Books', recordLabel: 'book', title: (b) => b.title,
  columns: [{ key: 'title', label: 'Title', sortable: true }, { key: 'pages', label: 'Pages', sortable: true }],
  defaultSort: '-pages', searchFields: ['title'], perPage: 10,
  form: { fields: [
    { key: 'title', label: 'Title', type: 'text', schema: z.string() },
    { key: 'pages', label: 'Pages', type: 'number', schema: z.coerce.number().int() },
  ] },
  actions: { view: { permission: 'books:read' } },
  source,
  ...patch,
})

t.test('a key that is not a field of the record is a type error', async (t) => {
  // Compiled, never called: some of these would also fail defineResource's checks at run time.
  const typeErrors = () => [
    // @ts-expect-error a column key with a typo
    book({ columns: [{ key: 'titel', label: 'Title' }] }),
    // @ts-expect-error a default sort on no field
    book({ defaultSort: '-page' }),
    // @ts-expect-error a search field with a typo
    book({ searchFields: ['tilte'] }),
    // @ts-expect-error a form field that the record does not have
    book({ form: { fields: [{ key: 'author', label: 'Author', type: 'text', schema: z.string() }] } }),
    // @ts-expect-error a form field whose schema gives another type than the record's
    book({ form: { fields: [{ key: 'pages', label: 'Pages', type: 'number', schema: z.string() }] } }),
  ]
  t.type(typeErrors, 'function', 'checked by tsc')
})

t.test('the list query the source receives is typed by the record', async (t) => {
  const seen: string[] = []
  const resource = book({
    source: {
      ...source,
      list: async (_actor, query) => {
        // Both are keys of Book, so this compiles without a cast; a typo would not.
        const sortedBy: keyof Book = query.sort.field
        seen.push(sortedBy, ...query.searchFields)
        return { data: [], total: 0 }
      },
    },
  })
  await resource.source.list(null, { page: 1, perPage: 10, searchFields: resource.searchFields, sort: resource.order('-pages'), filters: {} })
  t.same(seen, ['pages', 'title'])
  t.same(resource.order('-pages'), { field: 'pages', direction: 'desc' })
  t.same(resource.order('nonsense'), { field: 'pages', direction: 'desc' }, 'an unknown sort is the default order')
})

t.test('a typed resource goes into a panel as it is, and opens typed', async (t) => {
  const resources: AnyResource[] = [book()]
  t.same(Panel.make().id('library').path('library').access('admin-roles').resources(resources).describe().resources, ['books'])
  t.equal(resources[0]!.open((r) => r.columns.map((c) => c.key).join()), 'title,pages')
})
