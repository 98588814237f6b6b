import type { FastifyInstance } from 'fastify'
import { LRUCache } from 'lru-cache'

/**
 * Remembers what @fastify/secure-session decrypted, keyed by the exact cookie value, so a
 * signed-in client's later requests skip base64, XSalsa20-Poly1305 and JSON.parse (the largest
 * part of the session layer in profiles of /api/users). Exactness: decryption is a pure function
 * of (cookie, key), the key is fixed for the app's life, the expiry is checked again on every hit,
 * only successful decodes are kept, and each request gets its own Session object over a copy of
 * the data. Revocation does not depend on it: the session hook still looks the user up and
 * compares the session version on every request. Bounded (LRU), so stolen or old cookies cannot
 * grow it.
 *
 * It wraps the plugin's `decodeSecureSession` decorator, which the plugin's own onRequest hook
 * calls through the instance (a test checks that hits really happen, so an update of the plugin
 * that stops doing so is noticed).
 */
export function cacheDecodedSessions(app: FastifyInstance, options: { maxEntries: number; expirySeconds: number }) {
  const stats = { hits: 0, misses: 0, size: 0 }
  if (options.maxEntries <= 0) return stats
  const decode = app.decodeSecureSession.bind(app)
  const decoded = new LRUCache<string, Readonly<Record<string, unknown>>>({ max: options.maxEntries })
  const expired = (data: Readonly<Record<string, unknown>>) => ((data.__ts as number) + options.expirySeconds) * 1000 <= Date.now()

  app.decodeSecureSession = (cookie, log, sessionName) => {
    const known = cookie === undefined ? undefined : decoded.get(cookie)
    if (known) {
      stats.hits++
      if (expired(known)) {
        decoded.delete(cookie!)
        stats.size = decoded.size
        return null
      }
      return app.createSecureSession({ ...known })
    }
    const session = decode(cookie, log, sessionName)
    // A session decrypted with an older key is marked changed (re-encrypted on the way out): not kept.
    if (session && cookie !== undefined && !session.changed) {
      stats.misses++
      // data() leaves out the plugin's __ts (time of the last change), which its expiry check reads.
      decoded.set(cookie, Object.freeze({ ...session.data(), __ts: session.get('__ts' as never) }))
      stats.size = decoded.size
    }
    return session
  }
  return stats
}

/** Characters of Cookie headers kept at most, whatever their number: a header can be 16 KiB. */
const PARSED_HEADER_CHARS = 4 * 1024 * 1024

/**
 * Remembers @fastify/cookie's parse of a Cookie header (split, trimmed, URL-decoded), keyed by the
 * exact header: a signed-in client sends the same one with every request, and decoding its
 * session cookie's URL-encoded value was 3 % of the CPU of GET /api/users at saturation. Exact:
 * the parse is a pure function of the header. Each request gets a copy of its own (the plugin's
 * "new container per request"). Bounded by entries and by the characters kept, so no client can
 * grow it past a few MiB. It wraps the plugin's `parseCookie` decorator, which the plugin's
 * onRequest hook calls through the instance (a test checks that hits really happen).
 */
export function cacheParsedCookieHeaders(app: FastifyInstance, options: { maxEntries: number }) {
  const stats = { hits: 0, misses: 0 }
  if (options.maxEntries <= 0) return stats
  const parse = app.parseCookie.bind(app)
  const parsed = new LRUCache<string, Readonly<Record<string, string>>>({
    max: options.maxEntries,
    maxSize: PARSED_HEADER_CHARS,
    sizeCalculation: (_cookies, header) => Math.max(1, header.length),
  })
  app.parseCookie = (header) => {
    const known = parsed.get(header)
    if (known) {
      stats.hits++
      return { ...known }
    }
    stats.misses++
    const cookies = parse(header)
    if (header.length <= PARSED_HEADER_CHARS) parsed.set(header, Object.freeze({ ...cookies }))
    return cookies
  }
  return stats
}
