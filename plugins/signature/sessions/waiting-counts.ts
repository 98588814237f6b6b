/** A count and how long the clock leaves it true. */
export interface TimedCount {
  count: number
  /** The first due date still ahead (ISO): past it, a counted request has expired. Null: none ahead. */
  until: string | null
}

interface Entry {
  count: number
  stamp: number
  /** The instant it was counted at, ms: a clock set back before it may count expired requests again. */
  from: number
  /** `until` as ms (Infinity: none ahead). Instants compared as numbers: toISOString per page cost 1 µs. */
  until: number
}

/**
 * The top bar's Inbox count per user, on every page: one query and one more per sequential
 * session, a sixth of a People page's CPU on SQLite and one of its three round trips on
 * PostgreSQL. A count is kept until the database's write stamp moves (core/db/database.ts
 * writeStampOf: any write of this process at once, another process's commit to the session
 * tables as soon as it is seen) or the clock leaves [when it was counted, until]. Without a write stamp (a
 * Kysely instance openDatabase did not make) every call counts afresh.
 */
export class WaitingCounts {
  readonly #entries = new Map<string, Entry>()

  constructor(private readonly writeStamp: (() => number | Promise<number>) | undefined, private readonly maxEntries = 10_000) {}

  async of(userId: string, now: Date, count: () => Promise<TimedCount>): Promise<number> {
    if (!this.writeStamp) return (await count()).count
    const at = now.getTime()
    const stamp = await this.writeStamp()
    const known = this.#entries.get(userId)
    if (known && known.stamp === stamp && known.from <= at && at <= known.until) return known.count
    const fresh = await count()
    // Under the stamp read before counting: a write that landed meanwhile has moved it already.
    this.#entries.delete(userId)
    // A Map keeps insertion order: the oldest entry goes first when it is full.
    if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!)
    this.#entries.set(userId, { count: fresh.count, stamp, from: at, until: fresh.until === null ? Infinity : Date.parse(fresh.until) })
    return fresh.count
  }
}
