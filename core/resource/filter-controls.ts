import { filterQueryKeys, type FieldOption, type Resource, type ResourceRecord } from './define-resource.ts'
import type { ListState } from './list-state.ts'

export interface FilterControl {
  key: string
  label: string
  /** A select (select and ternary filters): its options and the chosen value ('' for All). */
  options: FieldOption[]
  value: string
  /** A date range: two date inputs, each with its own query parameter. */
  range: { from: { param: string; value: string }; until: { param: string; value: string } } | null
}

/** What the list's toolbar shows for each declared filter, with the values the URL carries. */
export function filterControls<R extends ResourceRecord>(resource: Resource<R>, state: ListState): FilterControl[] {
  return resource.filters.map((filter) => {
    if (filter.type === 'dateRange') {
      const [from, until] = filterQueryKeys(filter) as [string, string]
      return {
        key: filter.key, label: filter.label, options: [], value: '',
        range: { from: { param: from, value: state.filters[from] ?? '' }, until: { param: until, value: state.filters[until] ?? '' } },
      }
    }
    const options = filter.type === 'ternary'
      ? [{ value: 'true', label: filter.trueLabel ?? 'Yes' }, { value: 'false', label: filter.falseLabel ?? 'No' }]
      : filter.options
    return { key: filter.key, label: filter.label, options, value: state.filters[filter.key] ?? '', range: null }
  })
}
