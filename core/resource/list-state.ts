import { z } from 'zod'
import type { Resource, ResourceRecord } from './define-resource.ts'

/** What the URL of a list screen carries: a reload or a shared link shows the same table. */
export interface ListState {
  search: string
  /** 'name' or '-name' */
  sort: string
  page: number
}

type ListStateParser = (query: unknown) => ListState

// A resource is frozen by defineResource(): its schema can be keyed on it.
const parsers = new WeakMap<object, ListStateParser>()

/**
 * The parser of one resource's list state, built once (zod compiles a schema when it is built:
 * building it per request was a fifth of /admin/users' CPU). A shared link with a stale or
 * mistyped value still opens the list: bad values fall back to the defaults instead of a 400.
 */
export function listStateParser<R extends ResourceRecord>(resource: Resource<R>): ListStateParser {
  let parser = parsers.get(resource)
  if (!parser) {
    const sortValues = resource.sortKeys.flatMap((key) => [key, `-${key}`]) as [string, ...string[]]
    const schema = z.object({
      search: z.string().max(200).catch('').default(''),
      sort: z.enum(sortValues).catch(resource.defaultSort).default(resource.defaultSort),
      page: z.coerce.number().int().min(1).max(1_000_000).catch(1).default(1),
    })
    parser = (query) => {
      const parsed = schema.parse(query ?? {})
      return { search: parsed.search.trim(), sort: parsed.sort, page: parsed.page }
    }
    parsers.set(resource, parser)
  }
  return parser
}

/** Reads the list state from the query string (see listStateParser, which this reuses). */
export function parseListState<R extends ResourceRecord>(resource: Resource<R>, query: unknown): ListState {
  return listStateParser(resource)(query)
}

/** The list URL for a state, leaving out what equals the default so links stay short. */
export function listHref<R extends ResourceRecord>(base: string, resource: Resource<R>, state: ListState): string {
  const params = new URLSearchParams()
  if (state.search) params.set('search', state.search)
  if (state.sort !== resource.defaultSort) params.set('sort', state.sort)
  if (state.page > 1) params.set('page', String(state.page))
  const qs = params.toString()
  return qs ? `${base}?${qs}` : base
}
