import { sql, type RawBuilder } from 'kysely'

/**
 * The e-mail half of a search for a needle with one '@' (a whole address, or its start such as
 * "jane@"), on PostgreSQL: the same rows as `lower(email) LIKE '%needle%'`, found through a btree.
 *
 * A trigram index cannot find such a needle cheaply: its trigrams are common ones ("use", "r50",
 * "000" in "user500000@"), whose posting lists the index intersects, and with a million users the
 * search for one address read ~660 index pages (12 ms; a whole address 1,600 pages, 55 ms). But in
 * an address with one '@', the needle "L@D" can only sit across that '@': the part before it ends
 * with L and the part after it starts with D. That part reversed starts with L reversed, a range of
 * the btree users_by_reversed_local_part (migrations/004-users-email-search-indexes.ts) in code
 * point order (collation "C"); the rows in that range are then tested for the needle itself.
 * Addresses with several '@' (none the form accepts, but the table does not forbid them) may hold
 * it across another '@': they are tested alone, found through the partial index
 * users_with_several_ats. Without an '@' an address cannot hold the needle.
 *
 * The planner's estimate of the matches (a big list's "about N", and whether to read the page in
 * name order and stop) is the range's, from the expression index's statistics.
 *
 * Undefined when the needle has no '@', starts with one (the local part would not narrow
 * anything) or has several: the caller keeps its LIKE.
 */
export function emailContains(needle: string): RawBuilder<boolean> | undefined {
  const at = needle.indexOf('@')
  if (at <= 0 || needle.indexOf('@', at + 1) !== -1 || needle.includes('\u0000')) return undefined
  // PostgreSQL's reverse() reverses characters, as spreading a string into code points does.
  const from = [...needle.slice(0, at)].reverse().join('')
  const to = prefixEnd(from)
  if (to === undefined) return undefined
  const email = sql`lower(${sql.ref('email')})`
  const reversedLocal = sql`reverse(split_part(${email}, '@', 1)) collate "C"`
  // The containment itself is tested by strpos(), which no index serves: a LIKE here would let the
  // planner read the e-mail trigram index again. `<> 0`, not `> 0`: the planner takes an unknown
  // inequality to keep a third of the rows, an unknown `<>` nearly all, and the range alone
  // estimates the matches well (one address in a million users: 1 row; '0@', 100,000: 110,000).
  // `like '%@%@%'` is the partial index's predicate word for word: the planner matches it by its text.
  const contains = sql`strpos(${email}, ${needle}) <> 0`
  return sql<boolean>`((${reversedLocal} >= ${from} and ${reversedLocal} < ${to} and ${contains}) or (${email} like '%@%@%' and ${contains}))`
}

/**
 * The least string greater than every string that starts with `prefix`, in code point order (which
 * is UTF-8's byte order, collation "C"): its last code point that can grow, grown. Undefined when
 * none can (only U+10FFFF): no upper bound exists.
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix].map((c) => c.codePointAt(0)!)
  while (points.length > 0) {
    const last = points.pop()!
    // Surrogates are not characters PostgreSQL stores: the next one after U+D7FF is U+E000.
    if (last < 0x10ffff) return String.fromCodePoint(...points, last === 0xd7ff ? 0xe000 : last + 1)
  }
  return undefined
}
