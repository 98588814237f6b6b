import type { FastifyReply, FastifyRequest } from 'fastify'
import { requireAdmin } from '../access/assert-permission.ts'
import { requireUser } from '../auth/require-user.ts'
import type { Policy } from '../access/policy.ts'
import { ERR_ACCESS_DENIED, ERR_UNAUTHENTICATED } from '../http/errors.ts'
import { isHtmx, navigate } from '../views/htmx.ts'
import { setNotice } from '../views/notice.ts'
import { loginUrl } from '../views/safe-next.ts'
import type { Principal } from '../access/assert-permission.ts'

/** 'admin-roles': only the roles in adminRoles (requireAdmin). 'signed-in': anyone signed in. */
export type PanelAccess = 'admin-roles' | 'signed-in'

/** Whether a user may enter a panel: the gate's refusal and the top bar's link are this one check. */
export function mayEnterPanel(policy: Policy, access: PanelAccess, user: Principal | null | undefined): boolean {
  try {
    enterPanel(policy, access, user)
    return true
  } catch {
    return false
  }
}

function enterPanel(policy: Policy, access: PanelAccess, user: Principal | null | undefined): void {
  if (access === 'admin-roles') requireAdmin(policy, user)
  else requireUser(user)
}

/** A page navigation, as opposed to a script asking for JSON or writing. */
function isNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  const accept = request.headers.accept ?? ''
  return !(accept.includes('application/json') && !accept.includes('text/html'))
}

/**
 * The panel's gate, run by its onRequest hook, which covers exactly the panel's prefix because the
 * panel is an encapsulated context. Pages are redirected (to /login when signed out, to /dashboard
 * when the role may not enter) and it returns true: answered; htmx gets HX-Redirect; anything else
 * gets the 401/403 error, thrown. Synchronous, so the hook needs no promise.
 */
export function panelGate(policy: Policy, access: PanelAccess, label: string) {
  return function gate(request: FastifyRequest, reply: FastifyReply): boolean {
    try {
      enterPanel(policy, access, request.user)
      return false
    } catch (error) {
      const signedOut = !request.user
      if (isHtmx(request) || isNavigation(request)) {
        // The dashboard says why the person landed there instead of the page they clicked.
        if (!signedOut) setNotice(request, `${label} is for administrators: your role (${request.user!.role}) cannot open it.`)
        // Signed out in the middle of an htmx request (an expired session): 401, which the page's
        // session-recovery script answers with a sign-in dialog and the same request again; the
        // HX-Redirect stays for a page without that script.
        if (signedOut && isHtmx(request)) reply.code(401).header('HX-Redirect', loginUrl(request.url)).send()
        else navigate(request, reply, signedOut ? loginUrl(request.url) : '/dashboard', signedOut ? 303 : 307)
        return true
      }
      throw signedOut ? ERR_UNAUTHENTICATED() : ERR_ACCESS_DENIED((error as Error).message)
    }
  }
}
