import type { FastifyReply, FastifyRequest } from 'fastify'

export function isHtmx(request: FastifyRequest): boolean {
  return request.headers['hx-request'] === 'true'
}

/**
 * An htmx request that wants a fragment. History restores (back button after a cache miss) want
 * the whole page, or the browser would show a bare table.
 */
export function wantsFragment(request: FastifyRequest): boolean {
  return isHtmx(request) && request.headers['hx-history-restore-request'] !== 'true' && request.headers['hx-boosted'] !== 'true'
}

/**
 * Sends the browser to another page. htmx follows a 3xx inside its XHR and would swap the
 * target page into a fragment, so htmx gets HX-Redirect (a full navigation) instead.
 */
export function navigate(request: FastifyRequest, reply: FastifyReply, location: string, status: 302 | 303 | 307 = 303): FastifyReply {
  if (isHtmx(request)) return reply.code(200).header('HX-Redirect', location).send()
  return reply.redirect(location, status)
}
