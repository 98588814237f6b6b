import { z } from 'zod'
import type { PublicUser } from '../auth/user-repository.ts'

/** A table column; `sortable` makes it a sort key (?sort=key or ?sort=-key). */
export interface ResourceColumn<R> {
  key: string
  label: string
  sortable?: boolean
  /** The column that links to the record's page. */
  primary?: boolean
  /** Rendered as a small badge (roles, statuses). */
  badge?: boolean
  /** Text of the cell; defaults to String(record[key]). Escaped like everything else. */
  value?: (record: R) => string
}

export interface FieldOption {
  value: string
  label: string
}

/** One control of the edit form. Its key must be a key of the form schema. */
export interface ResourceField<R> {
  key: string
  label: string
  type: 'text' | 'email' | 'number' | 'textarea' | 'select'
  /** For selects: may depend on who is editing what (offer only the roles they may give). */
  options?: (actor: PublicUser, record: R) => FieldOption[]
  autocomplete?: string
  required?: boolean
  help?: string
}

/**
 * An action and the permission decide() must grant for it. `allowed` adds a per-record rule
 * (e.g. rank). Both only hide controls: the source re-checks everything on the server.
 */
export interface ResourceAction<R> {
  permission: string
  allowed?: (actor: PublicUser, record: R) => boolean
}

export interface ResourceListQuery {
  page: number
  perPage: number
  search?: string
  sort: { field: string; direction: 'asc' | 'desc' }
}

/** Where the records come from. Every method checks the actor's permissions itself. */
export interface ResourceSource<R> {
  list(actor: PublicUser | null, query: ResourceListQuery): Promise<{ data: R[]; total: number }>
  get(actor: PublicUser | null, id: string): Promise<R>
  update(actor: PublicUser | null, id: string, input: Record<string, unknown>): Promise<R>
  remove(actor: PublicUser | null, id: string): Promise<void>
}

export interface ResourceDefinition<R extends { id: string }> {
  /** URL segment and route-name part: /<panel>/<slug>, 'resources.<slug>.index'. */
  slug: string
  /** Plural, for navigation and headings: 'People'. */
  label: string
  /** Singular, for messages: 'person'. */
  recordLabel: string
  /** Heading of a record's page. */
  title: (record: R) => string
  navigationGroup?: string
  columns: ResourceColumn<R>[]
  /** A sortable column key, '-' in front for descending. */
  defaultSort: string
  /** The fields the source searches; named in the search box's placeholder. */
  searchFields: string[]
  perPage: number
  /** The write allow-list: a strict zod object whose keys are exactly the fields. */
  form: { schema: z.ZodObject; fields: ResourceField<R>[] }
  actions: { view: ResourceAction<R>; edit?: ResourceAction<R>; delete?: ResourceAction<R> }
  source: ResourceSource<R>
}

export interface Resource<R extends { id: string } = { id: string }> extends ResourceDefinition<R> {
  readonly sortKeys: readonly string[]
}

const SLUG = /^[a-z][a-z0-9-]*$/

function isStrict(schema: z.ZodObject): boolean {
  const catchall = (schema as unknown as { _zod: { def: { catchall?: { _zod: { def: { type: string } } } } } })._zod.def.catchall
  return catchall?._zod.def.type === 'never'
}

/**
 * Checks a resource definition once, at boot, so a typo in a sort key or a form field fails the
 * start instead of a request. The screens are generated from what it returns.
 */
export function defineResource<R extends { id: string }>(definition: ResourceDefinition<R>): Resource<R> {
  const where = `Resource "${definition.slug}"`
  if (!SLUG.test(definition.slug)) throw new Error(`${where}: the slug must be lower-case letters, digits and "-"`)
  const columnKeys = definition.columns.map((c) => c.key)
  const sortKeys = definition.columns.filter((c) => c.sortable).map((c) => c.key)
  if (!sortKeys.includes(definition.defaultSort.replace(/^-/, ''))) throw new Error(`${where}: defaultSort "${definition.defaultSort}" is not a sortable column`)
  if (!Number.isInteger(definition.perPage) || definition.perPage < 1 || definition.perPage > 100) throw new Error(`${where}: perPage must be 1..100`)
  if (new Set(columnKeys).size !== columnKeys.length) throw new Error(`${where}: duplicate column keys`)
  if (!isStrict(definition.form.schema)) throw new Error(`${where}: the form schema must be .strict(): it is the write allow-list`)
  const schemaKeys = Object.keys(definition.form.schema.shape).sort()
  const fieldKeys = definition.form.fields.map((f) => f.key).sort()
  if (schemaKeys.join() !== fieldKeys.join()) throw new Error(`${where}: form fields (${fieldKeys.join(', ')}) must match the schema keys (${schemaKeys.join(', ')})`)
  for (const field of definition.form.fields) {
    if (field.type === 'select' && !field.options) throw new Error(`${where}: the select "${field.key}" needs options`)
  }
  return Object.freeze({ ...definition, sortKeys: Object.freeze(sortKeys) })
}
