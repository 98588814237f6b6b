import type { FastifyRequest } from 'fastify'
import { safeNext } from './safe-next.ts'

/**
 * The local page a person came from, for a Cancel or Back link: an explicit `back` value first
 * (kept by links that reopen the same page), else the Referer when it is this host's, else
 * `fallback`. Only what safeNext accepts as a same-origin path survives.
 */
export function cameFrom(request: FastifyRequest, back: unknown, fallback: string): string {
  const explicit = safeNext(back)
  if (explicit) return explicit
  const referer = request.headers.referer
  if (typeof referer === 'string') {
    try {
      const url = new URL(referer)
      if (url.host === request.headers.host) {
        const path = safeNext(url.pathname + url.search)
        if (path && url.pathname !== request.url.split('?')[0]) return path
      }
    } catch {
      // Not a URL: no way back but the fallback.
    }
  }
  return fallback
}
