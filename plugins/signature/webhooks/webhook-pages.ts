import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { assertPermission } from '../../../core/access/assert-permission.ts'
import { requireUser } from '../../../core/auth/require-user.ts'
import { isAppError } from '../../../core/http/errors.ts'
import { parseInput } from '../../../core/http/validate.ts'
import type { NavigationItem, PanelContext } from '../../../core/panel/panel-plugin.ts'
import type { FormBody } from '../../../core/views/form-body.ts'
import { navigate } from '../../../core/views/htmx.ts'
import { WEBHOOKS_PERMISSION } from '../permissions.ts'
import { WEBHOOKS_ROUTE } from '../route-names.ts'
import { WEBHOOK_EVENTS } from '../outbox/webhook-events.ts'

const VIEWS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'views')
const LIST_VIEW = path.join(VIEWS, 'webhooks.eta')
const CREATED_VIEW = path.join(VIEWS, 'webhook-created.eta')
const DETAIL_VIEW = path.join(VIEWS, 'webhook-detail.eta')

const idParams = z.strictObject({ id: z.string().min(1).max(64) })
const deliveryParams = z.strictObject({ id: z.string().min(1).max(64), deliveryId: z.string().min(1).max(64) })
const list = (value: FormBody[string] | undefined) => (value === undefined ? [] : Array.isArray(value) ? value : [value])

export function webhooksNavigation(panel: PanelContext): NavigationItem {
  return { label: 'Webhooks', url: `/${panel.path}/webhooks`, permission: WEBHOOKS_PERMISSION, group: 'Signatures' }
}

/**
 * The admin's webhook pages: the endpoints with a form to add one (its secret shown once), and
 * each endpoint's delivery log with "send test event" and "redeliver". The same service and
 * permission as /api/webhooks, so the page can do nothing the API refuses.
 */
export function mountWebhookPages(panel: PanelContext, app: FastifyInstance): void {
  const webhooks = () => app.signature.webhooks
  const allowed = (request: FastifyRequest) => {
    assertPermission(app.policy, request.user, WEBHOOKS_PERMISSION)
    return requireUser(request.user)
  }
  const detailUrl = (id: string) => panel.url(WEBHOOKS_ROUTE.show, { id })

  app.get('/webhooks', { config: { name: WEBHOOKS_ROUTE.index } }, async (request, reply) => {
    allowed(request)
    const endpoints = (await webhooks().list()).map((e) => ({ ...e, url_: detailUrl(e.id) }))
    return reply.page(LIST_VIEW, { endpoints, events: WEBHOOK_EVENTS, action: `/${panel.path}/webhooks` }, { title: 'Webhooks' })
  })

  app.post('/webhooks', async (request, reply) => {
    const user = allowed(request)
    const form = (request.body ?? {}) as FormBody
    try {
      const { endpoint, secret } = await webhooks().create(user.id, { url: String(form.url ?? ''), description: String(form.description ?? ''), events: list(form.events) })
      return reply.fragment(CREATED_VIEW, { endpoint, secret, detailUrl: detailUrl(endpoint.id) })
    } catch (error) {
      // Shown next to the form, with its stable code; nothing was written.
      if (isAppError(error) && error.statusCode < 500) return reply.code(422).fragment(CREATED_VIEW, { error: { code: error.code, message: error.message } })
      throw error
    }
  })

  app.get('/webhooks/:id', { config: { name: WEBHOOKS_ROUTE.show } }, async (request, reply) => {
    allowed(request)
    const { id } = parseInput(idParams, request.params, 'params')
    const endpoint = await webhooks().get(id)
    return reply.page(DETAIL_VIEW, { endpoint, base: detailUrl(id), listUrl: panel.url(WEBHOOKS_ROUTE.index) }, { title: `Webhook ${endpoint.url}` })
  })

  app.post('/webhooks/:id/test', async (request, reply) => {
    allowed(request)
    const { id } = parseInput(idParams, request.params, 'params')
    await webhooks().sendTest(id)
    return navigate(request, reply, detailUrl(id))
  })

  app.post('/webhooks/:id/deliveries/:deliveryId/redeliver', async (request, reply) => {
    allowed(request)
    const { id, deliveryId } = parseInput(deliveryParams, request.params, 'params')
    await webhooks().redeliver(id, deliveryId)
    return navigate(request, reply, detailUrl(id))
  })

  app.post('/webhooks/:id/delete', async (request, reply) => {
    allowed(request)
    const { id } = parseInput(idParams, request.params, 'params')
    await webhooks().remove(id)
    return navigate(request, reply, panel.url(WEBHOOKS_ROUTE.index))
  })
}
