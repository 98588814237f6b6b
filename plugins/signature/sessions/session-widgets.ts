import type { FastifyInstance } from 'fastify'
import type { PanelContext } from '../../../core/panel/panel-plugin.ts'
import type { TableWidget } from '../../../core/views/dashboard-widgets.ts'
import { SESSION_PERMISSION } from '../permissions.ts'
import { INBOX_ROUTE, SESSION_ROUTE } from '../route-names.ts'

// The plugin's widgets of /dashboard. Route names are looked up when computed: every page of the
// panel exists by then, whatever order the plugin's pages were mounted in.

/** "Waiting for your signature": the signed-in user's own open requests (page 'inbox'), so every signed-in user may see it. */
export function waitingForSignatureWidget(panel: PanelContext, app: FastifyInstance): TableWidget {
  return {
    key: 'signature.waiting',
    kind: 'table',
    title: 'Waiting for your signature',
    permission: null,
    order: 10,
    columns: [{ key: 'document', label: 'Document' }, { key: 'template', label: 'Template' }, { key: 'state', label: 'State' }],
    empty: 'Nothing waits for your signature.',
    compute: async (user, { limit }) => {
      const inbox = panel.url(INBOX_ROUTE)
      const waiting = await app.signature.sessions.inbox(user)
      // The user's turn first, then the oldest: what can be done now, in the order it was asked.
      const ordered = [...waiting].sort((a, b) => Number(b.yourTurn) - Number(a.yourTurn) || a.createdAt.localeCompare(b.createdAt))
      return {
        total: waiting.length,
        rows: ordered.slice(0, limit).map((item) => ({
          document: { text: item.signable.title, url: item.yourTurn && item.signerUrl ? item.signerUrl : inbox },
          template: app.signature.registry.find(item.template)?.label() ?? item.template,
          state: item.yourTurn ? 'Your turn' : 'Others sign first',
        })),
        link: { label: 'Open the inbox', url: inbox },
      }
    },
  }
}

/** "Sessions in progress": every active session, for the roles that may read any session (page 'sessions'). */
export function sessionsInProgressWidget(panel: PanelContext, app: FastifyInstance): TableWidget {
  return {
    key: 'signature.sessions-in-progress',
    kind: 'table',
    title: 'Sessions in progress',
    permission: SESSION_PERMISSION.readAny,
    order: 20,
    columns: [{ key: 'document', label: 'Document' }, { key: 'signed', label: 'Signed' }, { key: 'started', label: 'Started' }],
    empty: 'No session is in progress.',
    compute: async (user, { limit }) => {
      const { total, rows } = await app.signature.sessions.inProgress(user, limit)
      return {
        total,
        rows: rows.map((s) => ({
          document: { text: s.title, url: panel.url(SESSION_ROUTE.show, { id: s.id }) },
          signed: `${s.signed} of ${s.requests}`,
          started: s.createdAt.slice(0, 10),
        })),
        link: { label: 'All signing sessions', url: panel.url(SESSION_ROUTE.index, {}, { status: 'active' }) },
      }
    },
  }
}
