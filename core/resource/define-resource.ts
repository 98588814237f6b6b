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
  /**
   * How the value reads (core/resource/display-value.ts): 'boolean' Yes/No, 'date' and 'datetime'
   * in words ("27 Nov 2026"), 'money' with `currency`. Ignored when `value` is given.
   */
  type?: 'text' | 'boolean' | 'date' | 'datetime' | 'money'
  /** ISO 4217 code of a money column ('EUR'). */
  currency?: string
}

export interface FieldOption {
  value: string
  label: string
}

/**
 * The kinds of control a form field renders: 'date' and 'datetime' are `<input type=date>` and
 * `datetime-local`, 'checkbox' and 'toggle' a box (a toggle drawn as a switch), 'decimal' and
 * 'money' a decimal text input, 'relationship' a select of another resource's records with a search.
 * Pair each with its value schema (core/resource/field-values.ts: dateValue, booleanValue, ...).
 */
export type FieldType = 'text' | 'email' | 'number' | 'textarea' | 'select' | 'date' | 'datetime' | 'checkbox' | 'toggle' | 'decimal' | 'money' | 'relationship'

/** One control of the edit form, declared once: what it shows and what it accepts. */
export interface ResourceField<R, K extends FieldKey<R> = FieldKey<R>> {
  key: K
  label: string
  type: FieldType
  /** What the field accepts; the form's strict schema is built from these (read-only fields excepted). */
  schema: z.ZodType<R[K]>
  /** Shown, never written: left out of the write allow-list (a value sent for it is refused). */
  readOnly?: boolean
  /** For 'money': its ISO 4217 code; the input takes that currency's decimals. */
  currency?: string
  /** For 'decimal': the decimals shown (2 by default). */
  scale?: number
  /**
   * For 'relationship': the resource whose records are offered (their ids are the values, their
   * titles the labels). Offered and accepted only as far as that resource's view action allows
   * the actor: a value the actor may not see there is refused like an unknown one.
   */
  relationship?: { resource: AnyResource }
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
export interface SelectFilter<R> {
  type?: 'select'
  key: FieldKey<R>
  label: string
  options: FieldOption[]
}

/** Yes / No / All for a boolean field (?paid=true): the source gets `flags[key]`. */
export interface TernaryFilter<R> {
  type: 'ternary'
  key: FieldKey<R>
  label: string
  trueLabel?: string
  falseLabel?: string
}

/** Two dates bounding a date field, both inclusive (?issuedOnFrom=..&issuedOnUntil=..): the source gets `ranges[key]`. */
export interface DateRangeFilter<R> {
  type: 'dateRange'
  key: FieldKey<R>
  label: string
}

export type ResourceFilter<R> = SelectFilter<R> | TernaryFilter<R> | DateRangeFilter<R>

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
  /** The chosen value of each declared select filter; only declared keys, only offered values. */
  filters: Partial<Record<FieldKey<R>, string>>
  /** Ternary filters set to Yes (true) or No (false); one left at "All" is absent. */
  flags?: Partial<Record<FieldKey<R>, boolean>>
  /** Date-range filters: 'YYYY-MM-DD' bounds, both inclusive, either may be absent. */
  ranges?: Partial<Record<FieldKey<R>, DateRange>>
}

export interface DateRange { from?: string; until?: string }

/**
 * An action on one record beyond edit and delete ("Mark as paid"): a button on its row and on its
 * page, confirmed in the app's dialog when `confirm` is given, refused by the framework (its
 * permission, then its rule for the record) before `handle` runs. Its route exists only because
 * it is declared: POST /<panel>/<slug>/:id/actions/<name>.
 */
export interface RecordAction<R> extends ResourceAction<R> {
  /** URL segment: lower-case letters, digits and '-'. */
  name: string
  label: string
  confirm?: { title: string; message?: string; confirmLabel?: string }
  /** Does the work; answers the message shown after it ("Marked 2026-001 as paid."). */
  handle(actor: PublicUser, record: R): Promise<string | void>
}

/**
 * An action on the chosen rows ("Mark as paid"): in the bulk bar, confirmed in the app's dialog,
 * every id loaded and checked (permission, then rule) before `handle` gets the records; one
 * refused or unknown id refuses the whole request. POST /<panel>/<slug>/bulk/<name>.
 */
export interface BulkAction<R> extends ResourceAction<R> {
  name: string
  label: string
  confirm?: { title: string; message?: string; confirmLabel?: string }
  handle(actor: PublicUser, records: R[]): Promise<string | void>
}

/**
 * A list of related records on a record's page ("Invoices of this customer", "Signatures"). Shown
 * only to an actor decide() grants `permission`; rows are fetched for that actor and escaped.
 * A plugin contributes one to another's resource with panel.relationList(slug, list).
 */
export interface RelationList<R> {
  /** Unique on the page: the section's id. */
  key: string
  label: string
  permission: string
  columns: Array<{ key: string; label: string; type?: ResourceColumn<unknown>['type']; currency?: string }>
  /** The related records, each an object whose keys the columns name. */
  rows(actor: PublicUser, record: R): Promise<ReadonlyArray<object>>
  /** Said when there are no rows: "No signatures yet". */
  empty?: string
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
  /**
   * Filament's View and Edit pages: the record's page (GET <base>/:id) only shows the record (its
   * details, actions and relation lists, read-only for everyone) with an Edit button to its own
   * page, GET <base>/:id/edit, checked as the edit action. Without it the record's page shows the
   * details beside the edit form (to whom may edit).
   */
  viewPage?: boolean
  /** Actions on one record (row and record page), each with its permission and rule. */
  recordActions?: RecordAction<R>[]
  /** Actions on the chosen rows, each with its permission and rule (checked for every id). */
  bulkActions?: BulkAction<R>[]
  /** Related records listed on a record's page; plugins add theirs through panel.relationList(). */
  relations?: RelationList<R>[]
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

export interface Resource<R extends ResourceRecord> extends Readonly<Omit<ResourceDefinition<R>, 'form' | 'perPageOptions' | 'filters' | 'recordActions' | 'bulkActions' | 'relations'>>, AnyResource {
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
  readonly recordActions: readonly RecordAction<R>[]
  readonly bulkActions: readonly BulkAction<R>[]
  readonly relations: readonly RelationList<R>[]
  readonly sortKeys: readonly FieldKey<R>[]
  /** The order a ?sort= value means; a value that is not a sort key means the default order. */
  order(sort: string): SortOrder<R>
}

const SLUG = /^[a-z][a-z0-9-]*$/

/** The list screen's own query parameters: a filter may not take one of these names. */
export const RESERVED_QUERY_KEYS: ReadonlySet<string> = new Set(['search', 'sort', 'page', 'perPage'])

/** The query parameters a filter reads: its key, or for a date range `<key>From` and `<key>Until`. */
export function filterQueryKeys(filter: { type?: string; key: string }): string[] {
  return filter.type === 'dateRange' ? [`${filter.key}From`, `${filter.key}Until`] : [filter.key]
}

function isCurrency(code: string | undefined): boolean {
  if (!code || !/^[A-Z]{3}$/.test(code)) return false
  try {
    new Intl.NumberFormat('en', { style: 'currency', currency: code })
    return true
  } catch {
    return false
  }
}

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
    if (field.type === 'relationship' && !field.relationship) throw new Error(`${where}: the relationship "${field.key}" needs relationship.resource`)
    if (field.type === 'money' && !isCurrency(field.currency)) throw new Error(`${where}: the money field "${field.key}" needs a currency (ISO 4217, e.g. 'EUR')`)
  }
  for (const column of definition.columns) {
    if (column.type === 'money' && !isCurrency(column.currency)) throw new Error(`${where}: the money column "${column.key}" needs a currency (ISO 4217, e.g. 'EUR')`)
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
  const filterParams = filters.flatMap(filterQueryKeys)
  for (const filter of filters) {
    for (const param of filterQueryKeys(filter)) {
      if (RESERVED_QUERY_KEYS.has(param)) throw new Error(`${where}: a filter cannot use the name "${param}" (a list parameter)`)
    }
    if ((filter.type ?? 'select') === 'select' && (filter as { options: FieldOption[] }).options.length === 0) throw new Error(`${where}: the filter "${filter.key}" needs options`)
  }
  if (new Set(filterParams).size !== filterParams.length) throw new Error(`${where}: duplicate filters`)
  const recordActions = definition.recordActions ?? []
  const bulkActions = definition.bulkActions ?? []
  for (const [kind, actions] of [['record', recordActions], ['bulk', bulkActions]] as const) {
    for (const action of actions) {
      if (!SLUG.test(action.name)) throw new Error(`${where}: the ${kind} action "${action.name}" needs a name of lower-case letters, digits and "-"`)
    }
    if (new Set(actions.map((a) => a.name)).size !== actions.length) throw new Error(`${where}: duplicate ${kind} actions`)
  }
  const relations = definition.relations ?? []
  if (new Set(relations.map((r) => r.key)).size !== relations.length) throw new Error(`${where}: duplicate relation lists`)
  if (definition.actions.edit && !definition.source.update) throw new Error(`${where}: an edit action needs source.update`)
  if (definition.actions.delete && !definition.source.remove) throw new Error(`${where}: a delete action needs source.remove`)
  if (definition.actions.create && !definition.source.create) throw new Error(`${where}: a create action needs source.create`)
  if (definition.actions.bulkDelete && !definition.source.removeMany) throw new Error(`${where}: a bulkDelete action needs source.removeMany`)
  // Strict: a key the form does not have is refused, not dropped (the write allow-list). On the
  // edit form an empty write-only field (no new password) is no change at all.
  const blankIsAbsent = (schema: z.ZodType) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional())
  const written = fields.filter((field) => field.readOnly !== true)
  const schema = z.object(Object.fromEntries([
    ...written.map((field) => [field.key, field.schema] as const),
    ...writeOnly.filter((field) => field.on === 'edit').map((field) => [field.key, blankIsAbsent(field.schema)] as const),
  ])).strict()
  const createSchema = z.object(Object.fromEntries([
    ...written.map((field) => [field.key, field.schema] as const),
    ...writeOnly.filter((field) => field.on === 'create').map((field) => [field.key, field.schema] as const),
  ])).strict()
  const resource: Resource<R> = Object.freeze({
    ...definition,
    perPageOptions: Object.freeze(perPageOptions),
    filters: Object.freeze([...filters]),
    recordActions: Object.freeze([...recordActions]),
    bulkActions: Object.freeze([...bulkActions]),
    relations: Object.freeze([...relations]),
    form: Object.freeze({ fields: Object.freeze([...fields]), writeOnly: Object.freeze([...writeOnly]), schema, createSchema }),
    sortKeys: Object.freeze(sortKeys),
    order: (sort: string) => orders.get(sort) ?? defaultOrder,
    open: <T>(use: <S extends ResourceRecord>(typed: Resource<S>) => T): T => use(resource),
  })
  return resource
}
