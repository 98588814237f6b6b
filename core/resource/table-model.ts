import type { PublicUser } from '../auth/user-repository.ts'
import type { Resource, ResourceAction, ResourceColumn, ResourceRecord } from './define-resource.ts'
import { formatBoolean, formatDate, formatDateTime, formatMoney } from './display-value.ts'
import { listHref, type ListState } from './list-state.ts'
import { bulkActionButtons, recordActionButtons } from './custom-action-routes.ts'

export interface Urls {
  list: string
  record: (id: string) => string
  confirmDelete: (id: string) => string
  /** The confirmation of a bulk delete (GET with the chosen ids). */
  confirmBulkDelete: string
  /** POST of a declared record action on one record. */
  recordAction: (action: string, id: string) => string
  /** POST of a declared bulk action (ids in the body). */
  bulkAction: (action: string) => string
}

/** Whether a control is shown: the same decide() and the same rule the source's checks use. */
export function mayUse<R>(can: (permission: string) => boolean, actor: PublicUser, action: ResourceAction<R> | undefined, record: R): boolean {
  if (!action) return false
  return can(action.permission) && (action.rule?.allows(actor, record) ?? true)
}

/** The record half of mayUse, for a table that asked the permission half once. */
function allowsRecord<R>(actor: PublicUser, action: ResourceAction<R> | undefined, record: R): boolean {
  return action?.rule?.allows(actor, record) ?? true
}

// A badge column holds few values (roles, statuses): each one's class is worked out once.
const badgeClasses = new Map<string, string>()

/** The badge's modifier class for a value ('Manager' -> 'badge-manager'); null for a column that is no badge. */
export function badgeClass<R>(column: Pick<ResourceColumn<R>, 'badge' | 'type'>, text: string): string | null {
  // A boolean is a mark as well as a word: green Yes, grey No.
  if (column.type === 'boolean') return text === 'Yes' ? 'badge-success' : 'badge-gray'
  if (column.badge !== true) return null
  let name = badgeClasses.get(text)
  if (name === undefined) {
    name = `badge-${text.toLowerCase().replace(/[^a-z0-9-]/g, '')}`
    // Bounded: a column of free text marked as a badge would otherwise grow it for ever.
    if (badgeClasses.size >= 256) badgeClasses.clear()
    badgeClasses.set(text, name)
  }
  return name
}

export function columnText<R>(column: Pick<ResourceColumn<R>, 'key' | 'value' | 'type' | 'currency'>, record: R): string {
  if (column.value) return column.value(record)
  return displayText(column, record[column.key])
}

/** A value as a column of its type says it (display-value.ts); plain text for the others. */
export function displayText(column: { type?: ResourceColumn<unknown>['type']; currency?: string }, value: unknown): string {
  switch (column.type) {
    case 'boolean': return formatBoolean(value)
    case 'date': return formatDate(value)
    case 'datetime': return formatDateTime(value)
    case 'money': return formatMoney(value, column.currency!)
    default: return value === undefined || value === null ? '' : String(value)
  }
}

/** A boolean column's cell class: the value is said in words and shown as a mark. */
export function cellKind(column: { type?: ResourceColumn<unknown>['type'] }): string | null {
  return column.type === 'boolean' || column.type === 'money' || column.type === 'date' || column.type === 'datetime' ? column.type : null
}

/**
 * The list's URL with part of its state changed. A function of the module, not a closure made in
 * tableModel: npm start runs through tsx, whose esbuild keeps names, giving every named closure
 * its name with Object.defineProperty each time one is made (about 1 % of a People page's CPU).
 */
function linkTo<R extends ResourceRecord>(urls: Urls, resource: Resource<R>, state: ListState, patch: Partial<ListState>): string {
  return listHref(urls.list, resource, { ...state, ...patch })
}

/**
 * Everything the table component needs, computed here so the template only prints: header
 * links that toggle the sort, row links and actions the actor may use, pagination, empty state.
 */
export function tableModel<R extends ResourceRecord>(input: {
  resource: Resource<R>
  state: ListState
  rows: R[]
  total: number
  /** The source's total is an estimate (a big table: see core/db/page-total.ts): shown as "about N". */
  estimated?: boolean
  urls: Urls
  actor: PublicUser
  can: (permission: string) => boolean
}) {
  const { resource, state, rows, total, urls, actor, can } = input
  const estimated = input.estimated === true
  const current = { field: state.sort.replace(/^-/, ''), direction: state.sort.startsWith('-') ? 'desc' : 'asc' }
  const pageCount = Math.max(1, Math.ceil(total / state.perPage))
  const from = total === 0 || rows.length === 0 ? 0 : (state.page - 1) * state.perPage + 1
  const narrowed = state.search !== '' || Object.keys(state.filters).length > 0
  const bulkDelete = resource.actions.bulkDelete && can(resource.actions.bulkDelete.permission) ? resource.actions.bulkDelete : undefined
  const bulkActions = resource.bulkActions.filter((action) => can(action.permission))
  const bulkButtons = bulkActionButtons(resource, can, urls)
  const bulk = bulkDelete !== undefined || bulkActions.length > 0
  // The permissions are the actor's, whatever the row: asked once per table, not once per row.
  const mayView = resource.actions.view !== undefined && can(resource.actions.view.permission)
  const mayDelete = resource.actions.delete !== undefined && can(resource.actions.delete.permission)

  return {
    id: `${resource.slug}-table`,
    label: resource.label,
    refreshUrl: linkTo(urls, resource, state, {}),
    sort: state.sort,
    perPage: state.perPage,
    filters: state.filters,
    /** The bulk bar and the checkbox column: only when the actor holds the bulk permission. */
    bulk: bulk ? { confirmUrl: bulkDelete ? urls.confirmBulkDelete : null, actions: bulkButtons } : null,
    headers: resource.columns.map((column) => {
      const active = column.key === current.field
      const direction = active ? current.direction : null
      return {
        label: column.label,
        sortHref: column.sortable ? linkTo(urls, resource, state, { sort: active && direction === 'asc' ? `-${column.key}` : column.key, page: 1 }) : null,
        direction,
        ariaSort: direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : null,
      }
    }),
    rows: rows.map((record) => {
      // One URL per row, not one per cell; the permission half of each check was made once above.
      const viewHref = mayView && allowsRecord(actor, resource.actions.view, record) ? urls.record(record.id) : null
      return {
        id: record.id,
        cells: resource.columns.map((column) => {
          const text = columnText(column, record)
          return { label: column.label, text, href: column.primary ? viewHref : null, badge: badgeClass(column, text), kind: cellKind(column) }
        }),
        viewHref,
        deleteHref: mayDelete && allowsRecord(actor, resource.actions.delete, record) ? urls.confirmDelete(record.id) : null,
        // No checkbox on a row every bulk action would refuse (your own account, a higher rank).
        selectable: bulk ? (bulkDelete !== undefined && allowsRecord(actor, bulkDelete, record)) || bulkActions.some((action) => allowsRecord(actor, action, record)) : false,
        actions: recordActionButtons(resource, actor, can, record, urls),
        title: resource.title(record),
      }
    }),
    empty: rows.length > 0 ? null : {
      title: state.search ? `No ${resource.label.toLowerCase()} match “${state.search}”` : narrowed ? `No ${resource.label.toLowerCase()} match these filters` : total > 0 ? 'This page is empty' : `No ${resource.label.toLowerCase()} yet`,
      resetHref: narrowed || state.page > 1 ? linkTo(urls, resource, state, { search: '', filters: {}, page: 1 }) : null,
      resetLabel: Object.keys(state.filters).length > 0 ? 'Clear search and filters' : 'Clear search',
    },
    pagination: {
      from,
      to: from === 0 ? 0 : from + rows.length - 1,
      total,
      estimated,
      /** What the summary prints: the count, or an estimate said as one ("about 1,000,000"). */
      totalText: estimated ? `about ${roughly(total).toLocaleString('en-US')}` : String(total),
      page: state.page,
      pageCount,
      prevHref: state.page > 1 ? linkTo(urls, resource, state, { page: Math.min(state.page - 1, pageCount) }) : null,
      nextHref: state.page < pageCount ? linkTo(urls, resource, state, { page: state.page + 1 }) : null,
      pages: pageWindow(state.page, pageCount).map((n) => (n === null ? null : { n, href: linkTo(urls, resource, state, { page: n }), current: n === state.page })),
      target: `#${resource.slug}-table`,
    },
  }
}

/** An estimate to two significant figures: its last digits would claim a precision it lacks. */
export function roughly(n: number): number {
  if (n < 100) return n
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1)
  return Math.round(n / unit) * unit
}

/** 1 … 4 5 6 … 12: the first, the last and two either side of the current page. */
export function pageWindow(page: number, count: number): Array<number | null> {
  const out: Array<number | null> = []
  let last = 0
  // In ascending order but for repeats and strays, which the first test skips.
  for (const n of [1, page - 1, page, page + 1, count]) {
    if (n <= last || n > count) continue
    if (last > 0 && n - last > 1) out.push(null)
    out.push(n)
    last = n
  }
  return out
}
