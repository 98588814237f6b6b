import t from 'tap'
import { z } from 'zod'
import { defineResource, type ResourceDefinition } from '../../../core/resource/define-resource.ts'

type Row = { id: string; name: string; email: string }
const base = (): ResourceDefinition<Row> => ({
  slug: 'things', label: 'Things', recordLabel: 'thing', title: (r) => r.name,
  columns: [{ key: 'name', label: 'Name', sortable: true }, { key: 'email', label: 'E-mail' }],
  defaultSort: 'name', searchFields: ['name'], perPage: 10,
  form: { fields: [{ key: 'name', label: 'Name', type: 'text', schema: z.string() }] },
  actions: { view: { permission: 'things:read' } },
  source: { list: async () => ({ data: [], total: 0 }), get: async () => ({ id: '1', name: 'x', email: 'x@example.com' }), update: async () => ({ id: '1', name: 'x', email: 'x@example.com' }), remove: async () => {} },
})

t.test('a valid definition passes and lists its sort keys', async (t) => {
  t.same(defineResource(base()).sortKeys, ['name'])
})

t.test('mistakes fail at boot with the reason', async (t) => {
  t.throws(() => defineResource({ ...base(), defaultSort: '-email' }), /not a sortable column/)
  t.throws(() => defineResource({ ...base(), perPage: 0 }), /perPage/)
  t.throws(() => defineResource({ ...base(), slug: 'Bad Slug' }), /slug/)
  t.throws(() => defineResource({ ...base(), form: { fields: [{ key: 'name', label: 'Name', type: 'text', schema: z.string() }, { key: 'name', label: 'Again', type: 'text', schema: z.string() }] } }), /duplicate form fields/)
  t.throws(() => defineResource({ ...base(), form: { fields: [{ key: 'email', label: 'E-mail', type: 'select', schema: z.string() }] } }), /needs options/)
  t.throws(() => defineResource({ ...base(), actions: { view: { permission: 'things:read' }, bulkDelete: { permission: 'things:delete' } } }), /a bulkDelete action needs source.removeMany/, 'a bulk delete that could stop halfway')
})

// The schema can no longer be written apart from the fields (nor be non-strict, nor name other
// keys): it is derived. What used to be checked here is what the derived schema does.
t.test('the form schema is derived from the fields: strict, each field parsed by its own schema', async (t) => {
  const { schema } = defineResource({ ...base(), form: { fields: [
    { key: 'name', label: 'Name', type: 'text', schema: z.string().trim().min(1, 'required') },
    { key: 'email', label: 'E-mail', type: 'email', schema: z.string().toLowerCase() },
  ] } }).form
  t.same(Object.keys(schema.shape), ['name', 'email'])
  t.same(schema.parse({ name: ' Ada ', email: 'ADA@X' }), { name: 'Ada', email: 'ada@x' })
  const unknown = schema.safeParse({ name: 'Ada', email: 'a@x', role: 'admin' })
  t.equal(unknown.success, false)
  t.match(unknown.error?.issues, [{ code: 'unrecognized_keys', keys: ['role'] }], 'a key the form does not have is refused')
  t.match(schema.safeParse({ name: '', email: 'a@x' }).error?.issues, [{ path: ['name'], message: 'required' }])
})

t.test('a resource without a form (no edit action) accepts no key at all', async (t) => {
  const { form: _form, ...readOnly } = base()
  const { fields, schema } = defineResource(readOnly).form
  t.same(fields, [])
  t.match(schema.safeParse({ name: 'x' }).error?.issues, [{ code: 'unrecognized_keys', keys: ['name'] }])
})
