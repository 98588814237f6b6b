import type { FastifyReply, FastifyRequest } from 'fastify'
import { requireAdmin } from '../access/assert-permission.ts'
import type { Policy } from '../access/policy.ts'
import { ERR_ACCESS_DENIED, ERR_UNAUTHENTICATED } from '../http/errors.ts'
import { isHtmx, navigate } from '../views/htmx.ts'
import { loginUrl } from '../views/safe-next.ts'

/** 'admin-roles': only the roles in adminRoles (requireAdmin). 'signed-in': anyone signed in. */
export type PanelAccess = 'admin-roles' | 'signed-in'

/** A page navigation, as opposed to a script asking for JSON or writing. */
function isNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  const accept = request.headers.accept ?? ''
  return !(accept.includes('application/json') && !accept.includes('text/html'))
}

/**
 * The panel's onRequest gate. It covers exactly the panel's prefix because the panel is an
 * encapsulated context. Pages are redirected (to /login when signed out, to /dashboard when the
 * role may not enter); htmx gets HX-Redirect; anything else gets the 401/403 error.
 */
export function panelGate(policy: Policy, access: PanelAccess) {
  return async function gate(request: FastifyRequest, reply: FastifyReply) {
    try {
      if (access === 'admin-roles') requireAdmin(policy, request.user)
      else if (!request.user) throw ERR_UNAUTHENTICATED()
    } catch (error) {
      const signedOut = !request.user
      if (isHtmx(request) || isNavigation(request)) {
        return navigate(request, reply, signedOut ? loginUrl(request.url) : '/dashboard', signedOut ? 303 : 307)
      }
      throw signedOut ? ERR_UNAUTHENTICATED() : ERR_ACCESS_DENIED((error as Error).message)
    }
  }
}
