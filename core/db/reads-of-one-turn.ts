/**
 * Reads asked for with the same key during one turn of the event loop run once, at its end (the
 * check phase), and every caller gets that one answer.
 *
 * Why: on PostgreSQL every statement is a round trip that costs this process CPU to send and
 * parse, and a backend CPU and a wake-up to answer. Under load the requests that arrive together
 * ask the same things: the signed-in user of each (one user has several tabs and requests in
 * flight), the same page of a list. Measured with npm start's process on PostgreSQL
 * (USERS_STORE=database, 50 connections, bench row P2b): a People page's CPU went from 275 to
 * 133 µs, PostgreSQL's share of it from 65 to 5 µs; as 10 admins on 5 pages (P2c, with
 * lookupsOfOneTurn below), from 319 to 145 µs.
 *
 * Why this is not a cache, and stays exact: the statement is sent after every caller that shares
 * it asked, so none gets an answer from before a write that had committed when it asked (a
 * revoked session is refused by the next request, on every instance). A caller arriving once the
 * statement is on its way starts another one; nothing is kept once it is answered.
 *
 * What it costs: a read waits for the rest of the turn it was asked in. The answer is shared:
 * callers must not change it (map it into objects of their own).
 */
// As loaded: fake timers a test installs later must not hold reads back.
const atEndOfTurn = setImmediate

/** A promise of what `run` returns (or throws), run at the end of this turn. */
function atEndOfThisTurn<T>(run: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => atEndOfTurn(() => {
    try {
      run().then(resolve, reject)
    } catch (error) {
      reject(error)
    }
  }))
}

export function readsOfOneTurn(): <T>(key: string, read: () => Promise<T>) => Promise<T> {
  const waiting = new Map<string, Promise<unknown>>()
  return <T>(key: string, read: () => Promise<T>) => {
    let shared = waiting.get(key) as Promise<T> | undefined
    if (!shared) {
      shared = atEndOfThisTurn(() => {
        waiting.delete(key)
        return read()
      })
      waiting.set(key, shared)
    }
    return shared
  }
}

/**
 * Rows asked for by key during one turn, different keys or not, fetched with one call at its end
 * (one statement: `where id = any($1)`), each caller getting its key's row or undefined. The same
 * reasoning as readsOfOneTurn, for lookups of several people whose requests arrive together.
 */
export function lookupsOfOneTurn<K, T>(fetch: (keys: K[]) => Promise<T[]>, keyOf: (row: T) => K): (key: K) => Promise<T | undefined> {
  let batch: { keys: Set<K>; rows: Promise<Map<K, T>> } | undefined
  return (key) => {
    if (!batch) {
      const keys = new Set<K>()
      batch = {
        keys,
        rows: atEndOfThisTurn(async () => {
          batch = undefined
          return new Map((await fetch([...keys])).map((row) => [keyOf(row), row]))
        }),
      }
    }
    batch.keys.add(key)
    return batch.rows.then((byKey) => byKey.get(key))
  }
}
