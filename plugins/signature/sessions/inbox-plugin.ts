import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { requireUser } from '../../../core/auth/require-user.ts'
import type { NavigationItem, PanelContext } from '../../../core/panel/panel-plugin.ts'
import type { TopbarItem } from '../../../core/views/topbar.ts'
import { signatureAssetsUrl } from '../public-assets.ts'
import { DOCUMENT_ROUTE, INBOX_ROUTE, SESSION_ROUTE, SIGNER_ROUTE } from '../route-names.ts'
import { DOCUMENT_TEMPLATE_KEY } from './document-template-key.ts'
import { defaultSignerUrl } from './signer-url.ts'

const INBOX_VIEW = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'views', 'inbox.eta')

/**
 * "Waiting for my signature" in a panel (the app panel): the signed-in user's pending requests,
 * each with a link to the signer page opened on that request, and the sessions they started.
 * A page of SignaturePlugin (`.pages(['inbox'])`).
 */
export function inboxNavigation(panel: PanelContext): NavigationItem {
  return { label: 'Inbox', url: `/${panel.path}/inbox`, group: 'Signatures' }
}

/** The Inbox in every page's top bar, with the number of requests that are the user's turn. */
export function inboxTopbarItem(panel: PanelContext, app: FastifyInstance): TopbarItem {
  return {
    key: 'signature.inbox',
    label: 'Inbox',
    url: `/${panel.path}/inbox`,
    count: (user) => app.signature.sessions.waitingCount(user),
    countLabel: (count) => `${count} waiting for your signature`,
  }
}

const COMPLETED_SHOWN = 20

/** The panel's session pages, when it has them ('sessions' chosen too); null otherwise. */
function sessionPagesUrl(panel: PanelContext): string | null {
  try {
    return panel.url(SESSION_ROUTE.index)
  } catch {
    return null
  }
}

export function mountInboxPage(panel: PanelContext, app: FastifyInstance): void {
  const sessions = app.signature.sessions
  // The signer page is another page of this panel; its route exists once every plugin booted,
  // so the name is looked up per link, and the documented path is used while it is absent.
  sessions.useSignerUrl((input) => {
    try {
      // An uploaded document has no template: its own signing page (document-pages/document-signer-page.ts).
      if (input.templateKey === DOCUMENT_TEMPLATE_KEY) return panel.url(DOCUMENT_ROUTE.sign, { requestId: input.requestId })
      return panel.url(SIGNER_ROUTE.page, { templateKey: input.templateKey, signatureUuid: input.signatureUuid }, { request: input.requestId })
    } catch {
      return defaultSignerUrl(input)
    }
  })

  app.get('/inbox', { config: { name: INBOX_ROUTE } }, async (request, reply) => {
    const user = requireUser(request.user)
    const [waiting, started] = await Promise.all([sessions.inbox(user), sessions.list(user)])
    const mine = started.filter((s) => s.createdBy === user.id)
    // Completed next to what waits: the documents the user signed that everyone has signed, newest first.
    const completed = started.filter((s) => s.status === 'completed' && s.requests.some((r) => r.signer.id === user.id))
      .sort((a, b) => (b.closedAt ?? '').localeCompare(a.closedAt ?? '')).slice(0, COMPLETED_SHOWN)
    if (request.headers.accept?.includes('application/json')) return { data: { waiting, started: mine } }
    // inbox.js (plugins/signature/public/): the Decline dialog, which posts to the sessions API.
    return reply.page(INBOX_VIEW, { waiting, started: mine, completed, userId: user.id, sessionsUrl: sessionPagesUrl(panel), script: `${signatureAssetsUrl(panel.path)}inbox.js` }, { title: 'Inbox' })
  })
}
