import { z } from 'zod'
import type { PublicUser } from '../auth/user-repository.ts'
import type { Rule } from './rule.ts'

/** Every key a resource may name (columns, sort, search, form): a typo is a type error. */
export type FieldKey<R> = keyof R & string

/** A sort as the URL carries it: 'name' ascending, '-name' descending. */
export type SortValue<R> = FieldKey<R> | `-${FieldKey<R>}`

export interface SortOrder<R> {
  field: FieldKey<R>
  direction: 'asc' | 'desc'
}

export interface ResourceRecord {
  id: string
}

/** A table column; `sortable` makes it a sort key (?sort=key or ?sort=-key). */
export interface ResourceColumn<R> {
  key: FieldKey<R>
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

/** One control of the edit form, declared once: what it shows and what it accepts. */
export interface ResourceField<R, K extends FieldKey<R> = FieldKey<R>> {
  key: K
  label: string
  type: 'text' | 'email' | 'number' | 'textarea' | 'select'
  /** What the field accepts; the form's strict schema is built from these. */
  schema: z.ZodType<R[K]>
  /** For selects: may depend on who is editing what (offer only the roles they may give); record is null on the create form. */
  options?: (actor: PublicUser, record: R | null) => FieldOption[]
  autocomplete?: string
  required?: boolean
  help?: string
}

/** One field per key, each schema typed by its own key's value. */
export type FormField<R> = { [K in FieldKey<R>]: ResourceField<R, K> }[FieldKey<R>]

/**
 * A field that is written but never shown back (a password): not a key of the record, always
 * rendered empty. `on` says which form has it; on the edit form an empty value means "no change".
 */
export interface WriteOnlyField {
  key: string
  label: string
  type: 'password'
  on: 'create' | 'edit'
  schema: z.ZodType
  autocomplete?: string
  required?: boolean
  help?: string
}

/** A select above the table that narrows the list to one value of a field (?role=admin). */
export interface ResourceFilter<R> {
  key: FieldKey<R>
  label: string
  options: FieldOption[]
}

/**
 * An action and the permission decide() must grant for it. `rule` adds a per-record check
 * (e.g. rank): the page hides the control with rule.allows, the source refuses with rule.assert.
 */
export interface ResourceAction<R> {
  permission: string
  rule?: Rule<[actor: PublicUser, record: R]>
}

export interface ResourceListQuery<R> {
  page: number
  perPage: number
  search?: string
  /** The resource's searchFields: the only fields `search` may match. */
  searchFields: readonly FieldKey<R>[]
  sort: SortOrder<R>
  /** The chosen value of each declared filter; only declared keys, only offered values. */
  filters: Partial<Record<FieldKey<R>, string>>
}

/**
 * Where the records come from. The framework checks each declared action's permission (and its
 * rule for the record) before calling a method; a source may check again (a service shared with
 * an API does), it never has to be the only check.
 */
export interface ResourceSource<R> {
  /** `estimated`: `total` is an estimate, shown as "about N" (core/db/page-total.ts). */
  list(actor: PublicUser | null, query: ResourceListQuery<R>): Promise<{ data: R[]; total: number; estimated?: boolean }>
  get(actor: PublicUser | null, id: string): Promise<R>
  /** `input` has passed the form's strict schema: only form keys, each parsed by its field. Needed when actions.edit is declared. */
  update?(actor: PublicUser | null, id: string, input: Record<string, unknown>): Promise<R>
  /** Needed when actions.delete is declared. */
  remove?(actor: PublicUser | null, id: string): Promise<void>
  /** All of them or none, each checked as remove() checks it. Needed when actions.bulkDelete is declared. */
  removeMany?(actor: PublicUser | null, ids: string[]): Promise<void>
  /** `input` has passed the create form's strict schema. Needed when actions.create is declared. */
  create?(actor: PublicUser | null, input: Record<string, unknown>): Promise<R>
}

export interface ResourceDefinition<R extends ResourceRecord> {
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
  defaultSort: SortValue<R>
  /** The fields the source searches (passed in every list query); named in the search box's placeholder. */
  searchFields: FieldKey<R>[]
  perPage: number
  /** What the per-page selector offers (each 1..100); perPage is added when missing. */
  perPageOptions?: number[]
  /** Selects above the table, each narrowing the list to one value of its field. */
  filters?: ResourceFilter<R>[]
  /**
   * The fields are the write allow-list: the strict schema is derived from them. A resource
   * without an edit action needs none (no fields: every key is refused).
   */
  form?: { fields: FormField<R>[]; writeOnly?: WriteOnlyField[] }
  /**
   * Each action's permission (decide()) and rule are checked by the framework on its routes before
   * the source is called; an action left out has no route at all. edit needs source.update, delete
   * source.remove, create source.create and a form; bulkDelete needs source.removeMany and puts a
   * checkbox on each row the actor may delete (its permission and rule, checked again for every id
   * by the server).
   */
  actions: {
    view: ResourceAction<R>
    edit?: ResourceAction<R>
    delete?: ResourceAction<R>
    create?: { permission: string }
    bulkDelete?: ResourceAction<R>
  }
  source: ResourceSource<R>
}

/**
 * A resource with its record type hidden: what a panel holds, since one panel lists resources of
 * different record types. open() hands the typed resource to a generic function, so the code
 * that mounts it is checked against R without a cast.
 */
export interface AnyResource {
  readonly slug: string
  open<T>(use: <R extends ResourceRecord>(resource: Resource<R>) => T): T
}

export interface Resource<R extends ResourceRecord> extends Readonly<Omit<ResourceDefinition<R>, 'form' | 'perPageOptions' | 'filters'>>, AnyResource {
  readonly form: {
    readonly fields: readonly FormField<R>[]
    readonly writeOnly: readonly WriteOnlyField[]
    /** The edit form's write allow-list. */
    readonly schema: z.ZodObject
    /** The create form's write allow-list. */
    readonly createSchema: z.ZodObject
  }
  readonly perPageOptions: readonly number[]
  readonly filters: readonly ResourceFilter<R>[]
  readonly sortKeys: readonly FieldKey<R>[]
  /** The order a ?sort= value means; a value that is not a sort key means the default order. */
  order(sort: string): SortOrder<R>
}

const SLUG = /^[a-z][a-z0-9-]*$/

/** The list screen's own query parameters: a filter may not take one of these names. */
export const RESERVED_QUERY_KEYS: ReadonlySet<string> = new Set(['search', 'sort', 'page', 'perPage'])

/** 'name' and '-name' -> the order each means, for every sort key (URLs and APIs carry the string). */
export function sortOrders<K extends string>(sortKeys: readonly K[]): Map<string, { field: K; direction: 'asc' | 'desc' }> {
  const orders = new Map<string, { field: K; direction: 'asc' | 'desc' }>()
  for (const field of sortKeys) orders.set(field, { field, direction: 'asc' }).set(`-${field}`, { field, direction: 'desc' })
  return orders
}

/**
 * Checks a resource definition once, at boot, so a mistake the types cannot see (a default sort
 * on a column that is not sortable, two fields with one key) fails the start instead of a request.
 * The screens are generated from what it returns.
 */
export function defineResource<R extends ResourceRecord>(definition: ResourceDefinition<R>): Resource<R> {
  const where = `Resource "${definition.slug}"`
  if (!SLUG.test(definition.slug)) throw new Error(`${where}: the slug must be lower-case letters, digits and "-"`)
  const columnKeys = definition.columns.map((c) => c.key)
  const sortKeys = definition.columns.filter((c) => c.sortable).map((c) => c.key)
  const orders = sortOrders(sortKeys)
  const defaultOrder = orders.get(definition.defaultSort)
  if (!defaultOrder) throw new Error(`${where}: defaultSort "${definition.defaultSort}" is not a sortable column`)
  if (!Number.isInteger(definition.perPage) || definition.perPage < 1 || definition.perPage > 100) throw new Error(`${where}: perPage must be 1..100`)
  if (new Set(columnKeys).size !== columnKeys.length) throw new Error(`${where}: duplicate column keys`)
  const fields = definition.form?.fields ?? []
  const fieldKeys = fields.map((f) => f.key)
  if (new Set(fieldKeys).size !== fieldKeys.length) throw new Error(`${where}: duplicate form fields (${fieldKeys.join(', ')})`)
  for (const field of fields) {
    if (field.type === 'select' && !field.options) throw new Error(`${where}: the select "${field.key}" needs options`)
  }
  const writeOnly = definition.form?.writeOnly ?? []
  for (const on of ['create', 'edit'] as const) {
    const keys = writeOnly.filter((field) => field.on === on).map((field) => field.key)
    if (new Set(keys).size !== keys.length) throw new Error(`${where}: duplicate write-only fields on the ${on} form`)
  }
  for (const field of writeOnly) {
    if (fieldKeys.includes(field.key as FieldKey<R>) || columnKeys.includes(field.key as FieldKey<R>)) throw new Error(`${where}: the write-only field "${field.key}" is also a field of the record`)
  }
  const perPageOptions = [...new Set([...(definition.perPageOptions ?? [definition.perPage]), definition.perPage])].sort((a, b) => a - b)
  if (perPageOptions.some((n) => !Number.isInteger(n) || n < 1 || n > 100)) throw new Error(`${where}: perPageOptions must be 1..100`)
  const filters = definition.filters ?? []
  for (const filter of filters) {
    if (RESERVED_QUERY_KEYS.has(filter.key)) throw new Error(`${where}: a filter cannot be named "${filter.key}" (a list parameter)`)
    if (filter.options.length === 0) throw new Error(`${where}: the filter "${filter.key}" needs options`)
  }
  if (new Set(filters.map((f) => f.key)).size !== filters.length) throw new Error(`${where}: duplicate filters`)
  if (definition.actions.edit && !definition.source.update) throw new Error(`${where}: an edit action needs source.update`)
  if (definition.actions.delete && !definition.source.remove) throw new Error(`${where}: a delete action needs source.remove`)
  if (definition.actions.create && !definition.source.create) throw new Error(`${where}: a create action needs source.create`)
  if (definition.actions.bulkDelete && !definition.source.removeMany) throw new Error(`${where}: a bulkDelete action needs source.removeMany`)
  // Strict: a key the form does not have is refused, not dropped (the write allow-list). On the
  // edit form an empty write-only field (no new password) is no change at all.
  const blankIsAbsent = (schema: z.ZodType) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional())
  const schema = z.object(Object.fromEntries([
    ...fields.map((field) => [field.key, field.schema] as const),
    ...writeOnly.filter((field) => field.on === 'edit').map((field) => [field.key, blankIsAbsent(field.schema)] as const),
  ])).strict()
  const createSchema = z.object(Object.fromEntries([
    ...fields.map((field) => [field.key, field.schema] as const),
    ...writeOnly.filter((field) => field.on === 'create').map((field) => [field.key, field.schema] as const),
  ])).strict()
  const resource: Resource<R> = Object.freeze({
    ...definition,
    perPageOptions: Object.freeze(perPageOptions),
    filters: Object.freeze([...filters]),
    form: Object.freeze({ fields: Object.freeze([...fields]), writeOnly: Object.freeze([...writeOnly]), schema, createSchema }),
    sortKeys: Object.freeze(sortKeys),
    order: (sort: string) => orders.get(sort) ?? defaultOrder,
    open: <T>(use: <S extends ResourceRecord>(typed: Resource<S>) => T): T => use(resource),
  })
  return resource
}
