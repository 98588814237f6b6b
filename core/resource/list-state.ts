import { z } from 'zod'
import { filterQueryKeys, type DateRange, type Resource, type ResourceListQuery, type ResourceRecord } from './define-resource.ts'
import { isCalendarDate } from './field-values.ts'

/** What the URL of a list screen carries: a reload or a shared link shows the same table. */
export interface ListState {
  search: string
  /** 'name' or '-name' */
  sort: string
  page: number
  /** One of the resource's perPageOptions. */
  perPage: number
  /**
   * Declared filter's query parameter -> its value: a select's offered value, a ternary's 'true' or
   * 'false', a date range's `<key>From` / `<key>Until` day. A filter left at "all" is absent.
   */
  filters: Record<string, string>
}

type ListStateParser = (query: unknown) => ListState

// A resource is frozen by defineResource(): its schema can be keyed on it.
const parsers = new WeakMap<object, ListStateParser>()

/**
 * The parser of one resource's list state, built once (zod compiles a schema when it is built:
 * building it per request was a fifth of /admin/users' CPU). A shared link with a stale or
 * mistyped value still opens the list: bad values fall back to the defaults instead of a 400
 * (a per-page outside the offered ones, a filter value that is not one of its options).
 */
export function listStateParser<R extends ResourceRecord>(resource: Resource<R>): ListStateParser {
  let parser = parsers.get(resource)
  if (!parser) {
    const sortValues = resource.sortKeys.flatMap((key) => [key, `-${key}`]) as [string, ...string[]]
    const perPageValues = new Set(resource.perPageOptions)
    const filterParams = resource.filters.flatMap(filterQueryKeys)
    const day = z.string().refine(isCalendarDate).optional().catch(undefined)
    const filterShape = Object.fromEntries(resource.filters.flatMap((filter): Array<[string, z.ZodType]> => {
      if (filter.type === 'ternary') return [[filter.key, z.enum(['true', 'false']).optional().catch(undefined)]]
      if (filter.type === 'dateRange') return filterQueryKeys(filter).map((param) => [param, day])
      const values = filter.options.map((o) => o.value) as [string, ...string[]]
      return [[filter.key, z.enum(values).optional().catch(undefined)]]
    }))
    const schema = z.object({
      search: z.string().max(200).catch('').default(''),
      sort: z.enum(sortValues).catch(resource.defaultSort).default(resource.defaultSort),
      page: z.coerce.number().int().min(1).max(1_000_000).catch(1).default(1),
      perPage: z.coerce.number().int().refine((n) => perPageValues.has(n)).catch(resource.perPage).default(resource.perPage),
      ...filterShape,
    })
    parser = (query) => {
      const parsed = schema.parse(query ?? {}) as Record<string, unknown> & { search: string; sort: string; page: number; perPage: number }
      const filters: Record<string, string> = {}
      for (const param of filterParams) {
        const value = parsed[param]
        if (typeof value === 'string') filters[param] = value
      }
      return { search: parsed.search.trim(), sort: parsed.sort, page: parsed.page, perPage: parsed.perPage, filters }
    }
    parsers.set(resource, parser)
  }
  return parser
}

/**
 * The list state's filter values as the source's query takes them: select values, ternary flags
 * (true / false) and date ranges (either bound may be absent).
 */
export function sourceFilters<R extends ResourceRecord>(resource: Resource<R>, state: ListState): Pick<ResourceListQuery<R>, 'filters' | 'flags' | 'ranges'> {
  const filters: Record<string, string> = {}
  const flags: Record<string, boolean> = {}
  const ranges: Record<string, DateRange> = {}
  for (const filter of resource.filters) {
    if (filter.type === 'ternary') {
      const value = state.filters[filter.key]
      if (value !== undefined) flags[filter.key] = value === 'true'
    } else if (filter.type === 'dateRange') {
      const [fromKey, untilKey] = filterQueryKeys(filter)
      const from = state.filters[fromKey!]
      const until = state.filters[untilKey!]
      if (from !== undefined || until !== undefined) ranges[filter.key] = { ...(from !== undefined ? { from } : {}), ...(until !== undefined ? { until } : {}) }
    } else {
      const value = state.filters[filter.key]
      if (value !== undefined) filters[filter.key] = value
    }
  }
  return { filters, flags, ranges } as Pick<ResourceListQuery<R>, 'filters' | 'flags' | 'ranges'>
}

/** Reads the list state from the query string (see listStateParser, which this reuses). */
export function parseListState<R extends ResourceRecord>(resource: Resource<R>, query: unknown): ListState {
  return listStateParser(resource)(query)
}

/** The list URL for a state, leaving out what equals the default so links stay short. */
export function listHref<R extends ResourceRecord>(base: string, resource: Resource<R>, state: ListState): string {
  const params = new URLSearchParams()
  if (state.search) params.set('search', state.search)
  for (const param of resource.filters.flatMap(filterQueryKeys)) {
    const value = state.filters[param]
    if (value) params.set(param, value)
  }
  if (state.sort !== resource.defaultSort) params.set('sort', state.sort)
  if (state.perPage !== resource.perPage) params.set('perPage', String(state.perPage))
  if (state.page > 1) params.set('page', String(state.page))
  const qs = params.toString()
  return qs ? `${base}?${qs}` : base
}
