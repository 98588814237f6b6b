const BASE = 'http://local.invalid'

/**
 * The local path to return to after sign-in, or undefined. Only a same-origin path survives:
 * "//evil.example", "/\\evil.example", "https://evil.example" and "javascript:" all resolve to
 * another origin (or scheme) and are dropped, so the login page is no open redirect.
 */
export function safeNext(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.length > 2000) return undefined
  let url: URL
  try {
    url = new URL(value, BASE)
  } catch {
    return undefined
  }
  if (url.origin !== BASE) return undefined
  const path = url.pathname + url.search
  if (path === '/login' || path.startsWith('/login?') || path === '/logout') return undefined
  return path
}

export function loginUrl(next: string | undefined): string {
  const target = safeNext(next)
  return target && target !== '/dashboard' ? `/login?next=${encodeURIComponent(target)}` : '/login'
}
