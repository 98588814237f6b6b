import type { PublicUser } from '../auth/user-repository.ts'
import type { Policy } from '../access/policy.ts'

/**
 * A link in the top bar of every page: what a person must reach from anywhere (the panels they
 * may enter, their signatures, what waits for them). Panels and panel plugins contribute them;
 * the layout shows those the signed-in user may use.
 */
export interface TopbarItem {
  /** One item per key: the first contribution wins (two panels may offer the same inbox). */
  key: string
  label: string
  /** Absolute path. */
  url: string
  /** Shown only when decide() allows it. */
  permission?: string
  /** A further condition (a panel's own gate), evaluated with the same user. */
  visibleTo?(user: PublicUser): boolean
  /** A number shown next to the label (what waits), left out when 0. Runs once per page. */
  count?(user: PublicUser): Promise<number>
  /** The count as words for screen readers: '3 waiting'. */
  countLabel?(count: number): string
  /** Active when the current path starts with this (defaults to url). */
  activePrefix?: string
}

export interface ShownTopbarItem {
  key: string
  label: string
  url: string
  active: boolean
  count: number
  countLabel: string
}

export class Topbar {
  readonly #items = new Map<string, TopbarItem>()

  add(item: TopbarItem): void {
    if (!this.#items.has(item.key)) this.#items.set(item.key, item)
  }

  /** The items for this user on this path; a count that fails is reported and shown as none: the page still answers. */
  async shownTo(policy: Policy, user: PublicUser | null, currentPath: string, onCountError: (error: unknown) => void): Promise<ShownTopbarItem[]> {
    if (!user) return []
    const visible = [...this.#items.values()].filter((item) =>
      (!item.permission || policy.can(user.role, item.permission)) && (!item.visibleTo || item.visibleTo(user)))
    // One item is current: the one whose prefix matches the most (the Inbox, not its panel too).
    const prefixOf = (item: TopbarItem) => item.activePrefix ?? item.url
    const matches = (item: TopbarItem) => currentPath === prefixOf(item) || currentPath.startsWith(`${prefixOf(item)}/`)
    const current = visible.filter(matches).sort((a, b) => prefixOf(b).length - prefixOf(a).length)[0]
    return Promise.all(visible.map(async (item) => {
      const count = item.count ? await item.count(user).catch((error: unknown) => { onCountError(error); return 0 }) : 0
      return {
        key: item.key,
        label: item.label,
        url: item.url,
        active: item === current,
        count,
        countLabel: count > 0 ? (item.countLabel?.(count) ?? String(count)) : '',
      }
    }))
  }
}
