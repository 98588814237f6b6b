import t from 'tap'
import { z } from 'zod'
import { defineResource, type ResourceDefinition } from '../../../core/resource/define-resource.ts'

type Row = { id: string; name: string }
const base = (): ResourceDefinition<Row> => ({
  slug: 'things', label: 'Things', recordLabel: 'thing', title: (r) => r.name,
  columns: [{ key: 'name', label: 'Name', sortable: true }],
  defaultSort: 'name', searchFields: ['name'], perPage: 10,
  form: { schema: z.object({ name: z.string() }).strict(), fields: [{ key: 'name', label: 'Name', type: 'text' }] },
  actions: { view: { permission: 'things:read' } },
  source: { list: async () => ({ data: [], total: 0 }), get: async () => ({ id: '1', name: 'x' }), update: async () => ({ id: '1', name: 'x' }), remove: async () => {} },
})

t.test('a valid definition passes and lists its sort keys', async (t) => {
  t.same(defineResource(base()).sortKeys, ['name'])
})

t.test('mistakes fail at boot with the reason', async (t) => {
  t.throws(() => defineResource({ ...base(), form: { ...base().form, schema: z.object({ name: z.string() }) } }), /must be \.strict\(\)/)
  t.throws(() => defineResource({ ...base(), defaultSort: '-email' }), /not a sortable column/)
  t.throws(() => defineResource({ ...base(), perPage: 0 }), /perPage/)
  t.throws(() => defineResource({ ...base(), slug: 'Bad Slug' }), /slug/)
  t.throws(() => defineResource({ ...base(), form: { schema: z.object({ name: z.string(), role: z.string() }).strict(), fields: base().form.fields } }), /must match the schema keys/)
})
