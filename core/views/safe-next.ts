const BASE = 'http://local.invalid'

/** The same-origin reading of `value` (the URL parser strips tabs and newlines, turns "\" into "/" and removes dot segments, as a browser does), or undefined. */
function resolveLocal(value: string): string | undefined {
  let url: URL
  try {
    url = new URL(value, BASE)
  } catch {
    return undefined
  }
  return url.origin === BASE ? url.pathname + url.search : undefined
}

/**
 * The local path to return to after sign-in, or undefined. Only a same-origin path survives:
 * "//evil.example", "/\\evil.example", "https://evil.example" and "javascript:" all resolve to
 * another origin (or scheme) and are dropped, so the login page is no open redirect.
 *
 * The check is made on the path as the browser will read the Location, not on what was sent:
 * "/.//evil.example" is same-origin as sent, but normalizes to "//evil.example", which a browser
 * reads as another host. So the normalized path must itself resolve here, as a path.
 */
export function safeNext(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 2000) return undefined
  const path = resolveLocal(value)
  if (path === undefined || path.startsWith('//') || resolveLocal(path) !== path) return undefined
  if (path === '/login' || path.startsWith('/login?') || path === '/logout') return undefined
  return path
}

export function loginUrl(next: string | undefined): string {
  const target = safeNext(next)
  return target && target !== '/dashboard' ? `/login?next=${encodeURIComponent(target)}` : '/login'
}
