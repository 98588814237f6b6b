/** A value and how long the clock leaves it true. */
export interface TimedValue<T> {
  value: T
  /** The first due date still ahead (ISO): past it, something counted has expired. Null: none ahead. */
  until: string | null
}

interface Entry<T> {
  value: T
  stamp: number
  /** The instant it was taken at, ms: a clock set back before it may see expired requests again. */
  from: number
  /** `until` as ms (Infinity: none ahead). Instants compared as numbers: toISOString per page cost 1 µs. */
  until: number
}

/**
 * What the session tables say, kept until the database's write stamp moves (core/db/database.ts
 * writeStampOf: any write of this process at once, another process's commit to the session tables
 * as soon as it is seen) or the clock leaves [when it was taken, until]. Without a write stamp (a
 * Kysely instance openDatabase did not make) every call takes it afresh. For what only the session
 * tables and the clock decide: another table's write does not move the stamp on PostgreSQL.
 */
export class KeptUntilWritten<T> {
  readonly #entries = new Map<string, Entry<T>>()

  constructor(private readonly writeStamp: (() => number | Promise<number>) | undefined, private readonly maxEntries = 10_000) {}

  async of(key: string, now: Date, take: () => Promise<TimedValue<T>>): Promise<T> {
    if (!this.writeStamp) return (await take()).value
    const at = now.getTime()
    const stamp = await this.writeStamp()
    const known = this.#entries.get(key)
    if (known && known.stamp === stamp && known.from <= at && at <= known.until) return known.value
    const fresh = await take()
    // Under the stamp read before taking it: a write that landed meanwhile has moved it already.
    this.#entries.delete(key)
    // A Map keeps insertion order: the oldest entry goes first when it is full.
    if (this.#entries.size >= this.maxEntries) this.#entries.delete(this.#entries.keys().next().value!)
    this.#entries.set(key, { value: fresh.value, stamp, from: at, until: fresh.until === null ? Infinity : Date.parse(fresh.until) })
    return fresh.value
  }
}
