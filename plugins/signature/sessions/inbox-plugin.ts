import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { ERR_UNAUTHENTICATED } from '../../../core/http/errors.ts'
import type { PanelContext, PanelPlugin } from '../../../core/panel/panel-plugin.ts'
import { signatureAssetsUrl } from '../public-assets.ts'
import { defaultSignerUrl } from './signer-url.ts'
import type { SigningSessionManager } from './signing-session-manager.ts'

const INBOX_VIEW = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'views', 'inbox.eta')
export const INBOX_ROUTE = 'signing-sessions.inbox'
/** The signer page's route name (plugins/signature/signer/signer-routes.ts SIGNER_ROUTE.page), when that page is mounted in this panel. */
export const SIGNER_ROUTE = 'signature.pdf-templates.signer'

/**
 * "Waiting for my signature" in a panel (the app panel): the signed-in user's pending requests,
 * each with a link to the signer page opened on that request, and the sessions they started.
 */
export class SigningSessionsInbox implements PanelPlugin {
  readonly id = 'signing-sessions-inbox'

  static make(): SigningSessionsInbox {
    return new SigningSessionsInbox()
  }

  register(panel: PanelContext): void {
    panel.navigationItem({ label: 'Inbox', url: `/${panel.path}/inbox`, group: 'Signatures' })
  }

  boot(panel: PanelContext, app: FastifyInstance): void {
    const manager = () => {
      const sessions = (app as Partial<FastifyInstance>).signature?.sessions as SigningSessionManager | undefined
      if (!sessions || typeof sessions.inbox !== 'function') throw new Error('Signing sessions are not installed (app.signature.sessions)')
      return sessions
    }
    // The signer page is another plugin of this panel; its route exists once every plugin booted,
    // so the name is looked up per link, and the documented path is used while it is absent.
    manager().useSignerUrl((input) => {
      try {
        return panel.url(SIGNER_ROUTE, { templateKey: input.templateKey, signatureUuid: input.signatureUuid }, { request: input.requestId })
      } catch {
        return defaultSignerUrl(input)
      }
    })

    app.get('/inbox', { config: { name: INBOX_ROUTE } }, async (request, reply) => {
      if (!request.user) throw ERR_UNAUTHENTICATED()
      const sessions = manager()
      const [waiting, started] = await Promise.all([sessions.inbox(request.user), sessions.list(request.user)])
      const mine = started.filter((s) => s.createdBy === request.user!.id)
      if (request.headers.accept?.includes('application/json')) return { data: { waiting, started: mine } }
      // inbox.js (plugins/signature/public/): the Decline dialog, which posts to the sessions API.
      return reply.page(INBOX_VIEW, { waiting, started: mine, script: `${signatureAssetsUrl(panel.path)}inbox.js` }, { title: 'Inbox' })
    })
  }
}
