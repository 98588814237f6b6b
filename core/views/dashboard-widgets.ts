import type { Policy } from '../access/policy.ts'
import type { PublicUser } from '../auth/user-repository.ts'

/**
 * Widgets of the dashboard: panels and panel plugins contribute them (a counter, a short table),
 * and /dashboard shows them beside its tiles and dock. Each one names the permission it needs;
 * decide() answers before anything is computed, so a widget a user may not see costs nothing and
 * leaks nothing. A widget that fails shows "could not load" alone: the dashboard still answers.
 */

/** A link in a widget: a local path only (escaped like all text; never a `javascript:` or another site). */
export interface WidgetLink {
  label: string
  url: string
}

/** A table cell: text, or text that links to a local path. */
export type WidgetCell = string | number | { text: string; url: string }

interface WidgetBase {
  /** One widget per key: the first contribution wins (two panels may mount the same plugin). */
  key: string
  title: string
  /**
   * The permission decide() must allow for the user, e.g. 'signing-sessions:read-any'; `null`
   * says on purpose that every signed-in user sees it (it shows only their own data).
   */
  permission: string | null
  /** A further condition (a panel's own gate), evaluated with the same user before computing. */
  visibleTo?(user: PublicUser): boolean
  /** Lower comes first; default 100, then in the order contributed. */
  order?: number
}

export interface CounterWidget extends WidgetBase {
  kind: 'counter'
  compute(user: PublicUser): Promise<{ value: number; caption?: string; link?: WidgetLink }>
}

export interface TableWidget extends WidgetBase {
  kind: 'table'
  columns: ReadonlyArray<{ key: string; label: string }>
  /** Shown when there are no rows, e.g. 'Nothing waits for you.' */
  empty: string
  /** `limit` is how many rows are shown (WIDGET_ROWS): fetch no more. `total`, when given, is shown as a count. */
  compute(user: PublicUser, options: { limit: number }): Promise<{ rows: Array<Record<string, WidgetCell>>; total?: number; link?: WidgetLink }>
}

export type DashboardWidget = CounterWidget | TableWidget

/** A short table: the dashboard is a glance, the widget's link leads to the whole list. */
export const WIDGET_ROWS = 5

interface ShownCell { text: string; url: string | null }

export type ShownWidget =
  | { key: string; title: string; kind: 'failed' }
  | { key: string; title: string; kind: 'counter'; value: number; caption: string; link: WidgetLink | null }
  | { key: string; title: string; kind: 'table'; columns: ReadonlyArray<{ key: string; label: string }>; rows: ShownCell[][]; total: number | null; empty: string; link: WidgetLink | null }

const LOCAL_PATH = /^\/(?![/\\])/

export class DashboardWidgets {
  readonly #widgets = new Map<string, DashboardWidget>()

  add(widget: DashboardWidget): void {
    if (!/^[a-z][a-z0-9.-]*$/.test(widget.key)) throw new Error(`A dashboard widget needs a key of lower-case letters, digits, "." and "-" (got ${JSON.stringify(widget.key)})`)
    if (!this.#widgets.has(widget.key)) this.#widgets.set(widget.key, widget)
  }

  get size(): number {
    return this.#widgets.size
  }

  /**
   * The widgets this user may see, computed together; the others are never called. A widget
   * that throws, or answers something it may not (a link off the site), is reported and shown
   * as "could not load".
   */
  async shownTo(policy: Policy, user: PublicUser, onError: (key: string, error: unknown) => void): Promise<ShownWidget[]> {
    const visible = [...this.#widgets.values()]
      .filter((w) => (w.permission === null || policy.decide(user.role, w.permission).allowed) && visibleTo(w, user, onError))
    const ordered = visible.map((w, i) => ({ w, i })).sort((a, b) => (a.w.order ?? 100) - (b.w.order ?? 100) || a.i - b.i).map(({ w }) => w)
    return Promise.all(ordered.map(async (widget) => {
      try {
        return await shown(widget, user)
      } catch (error) {
        onError(widget.key, error)
        return { key: widget.key, title: widget.title, kind: 'failed' as const }
      }
    }))
  }
}

/** A condition that throws hides its widget (fails closed) and is reported; the page still answers. */
function visibleTo(widget: DashboardWidget, user: PublicUser, onError: (key: string, error: unknown) => void): boolean {
  if (!widget.visibleTo) return true
  try {
    return widget.visibleTo(user)
  } catch (error) {
    onError(widget.key, error)
    return false
  }
}

async function shown(widget: DashboardWidget, user: PublicUser): Promise<ShownWidget> {
  if (widget.kind === 'counter') {
    const result = await widget.compute(user)
    if (!Number.isFinite(result.value)) throw new Error(`widget ${widget.key}: the value is not a number`)
    return { key: widget.key, title: widget.title, kind: 'counter', value: result.value, caption: result.caption ?? '', link: checkedLink(result.link) }
  }
  const result = await widget.compute(user, { limit: WIDGET_ROWS })
  const rows = result.rows.slice(0, WIDGET_ROWS).map((row) => widget.columns.map((column) => cellOf(row[column.key])))
  return {
    key: widget.key, title: widget.title, kind: 'table', columns: widget.columns, rows,
    total: result.total ?? null, empty: widget.empty, link: checkedLink(result.link),
  }
}

function cellOf(cell: WidgetCell | undefined): ShownCell {
  if (cell === undefined) return { text: '', url: null }
  if (typeof cell === 'object') return { text: cell.text, url: checkedUrl(cell.url) }
  return { text: String(cell), url: null }
}

function checkedLink(link: WidgetLink | undefined): WidgetLink | null {
  return link ? { label: link.label, url: checkedUrl(link.url) } : null
}

function checkedUrl(url: string): string {
  if (typeof url !== 'string' || !LOCAL_PATH.test(url)) throw new Error(`a widget link must be a local path (got ${JSON.stringify(url)})`)
  return url
}
