import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { assertPermission } from '../../../core/access/assert-permission.ts'
import { ERR_NOT_FOUND } from '../../../core/http/errors.ts'
import { parseInput } from '../../../core/http/validate.ts'
import type { NavigationItem, PanelContext } from '../../../core/panel/panel-plugin.ts'
import { OUTBOX_PERMISSION } from '../permissions.ts'
import { OUTBOX_ROUTE } from '../route-names.ts'
import { ORDERED_ID } from '../ordered-id.ts'
import { emlKey } from './mail-transport.ts'

const VIEW = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'views', 'outbox.eta')
const idParams = z.strictObject({ id: z.string().regex(ORDERED_ID, 'an outbox id') })

export function outboxNavigation(panel: PanelContext): NavigationItem {
  return { label: 'Outbox', url: `/${panel.path}/outbox`, permission: OUTBOX_PERMISSION, group: 'Signatures' }
}

/**
 * What the application sent, or, without SMTP_URL, wrote as .eml under storage/mail: each mail
 * with its recipient, subject, status and attempts, newest first; a written one opens as a file.
 */
export function mountOutboxPage(panel: PanelContext, app: FastifyInstance): void {
  app.get('/outbox', { config: { name: OUTBOX_ROUTE.index } }, async (request, reply) => {
    assertPermission(app.policy, request.user, OUTBOX_PERMISSION)
    const { outbox, mail } = app.signature
    const rows = await outbox.repository.list({ channel: 'mail' }, 200)
    const messages = await Promise.all(rows.map(async (r) => ({
      id: r.id, kind: r.topic, to: r.target, status: r.status, attempts: Number(r.attempts), summary: r.summary, lastError: r.last_error,
      createdAt: r.created_at, sentAt: r.sent_at,
      emlUrl: r.status === 'sent' && await mail.disk.exists(emlKey(r.id)) ? panel.url(OUTBOX_ROUTE.eml, { id: r.id }) : null,
    })))
    if (request.headers.accept?.includes('application/json')) return { data: messages }
    return reply.page(VIEW, { messages, transport: mail.transport.kind }, { title: 'Outbox' })
  })

  app.get('/outbox/:id/message.eml', { config: { name: OUTBOX_ROUTE.eml } }, async (request, reply) => {
    assertPermission(app.policy, request.user, OUTBOX_PERMISSION)
    const { id } = parseInput(idParams, request.params, 'params')
    const { disk } = app.signature.mail
    if (!(await disk.exists(emlKey(id)))) throw ERR_NOT_FOUND('No such message file')
    return reply.type('message/rfc822').header('content-disposition', `attachment; filename="${emlKey(id)}"`).send(await disk.get(emlKey(id)))
  })
}
