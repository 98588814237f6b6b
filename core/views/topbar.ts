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
    // Runs on every page: one pass, no closure made per call, a promise only for an item that counts.
    const shown: ShownTopbarItem[] = []
    const counts: Array<Promise<number> | number> = []
    const sources: TopbarItem[] = []
    let current: ShownTopbarItem | undefined
    let currentLength = -1
    for (const item of this.#items.values()) {
      if ((item.permission && !policy.can(user.role, item.permission)) || (item.visibleTo && !item.visibleTo(user))) continue
      const entry = { key: item.key, label: item.label, url: item.url, active: false, count: 0, countLabel: '' }
      // One item is current: the one whose prefix matches the most (the Inbox, not its panel too).
      const prefix = item.activePrefix ?? item.url
      if (prefix.length > currentLength && (currentPath === prefix || (currentPath.startsWith(prefix) && currentPath[prefix.length] === '/'))) {
        current = entry
        currentLength = prefix.length
      }
      shown.push(entry)
      sources.push(item)
      counts.push(item.count ? countOf(item, user, onCountError) : 0)
    }
    if (current) current.active = true
    for (let i = 0; i < shown.length; i++) {
      const pending = counts[i]!
      const count = typeof pending === 'number' ? pending : await pending
      if (count > 0) {
        const entry = shown[i]!
        entry.count = count
        entry.countLabel = sources[i]!.countLabel?.(count) ?? String(count)
      }
    }
    return shown
  }
}

function countOf(item: TopbarItem, user: PublicUser, onCountError: (error: unknown) => void): Promise<number> {
  return item.count!(user).catch((error: unknown) => { onCountError(error); return 0 })
}
