import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { assertPermission } from '../../../core/access/assert-permission.ts'
import type { Policy } from '../../../core/access/policy.ts'
import { requireUser } from '../../../core/auth/require-user.ts'
import { parseInput } from '../../../core/http/validate.ts'
import { WEBHOOKS_PERMISSION } from '../permissions.ts'
import type { WebhookService } from './webhook-service.ts'

const idParams = z.strictObject({ id: z.string().min(1).max(64) })
const deliveryParams = z.strictObject({ id: z.string().min(1).max(64), deliveryId: z.string().min(1).max(64) })

/** /api/webhooks: admins (webhooks:manage) register endpoints and follow their deliveries. */
export async function webhooksApi(app: FastifyInstance, { webhooks, policy }: { webhooks: WebhookService; policy: Policy }) {
  const allowed = (request: FastifyRequest) => {
    assertPermission(policy, request.user, WEBHOOKS_PERMISSION)
    return requireUser(request.user)
  }

  // The secret is in this answer and nowhere else, ever.
  app.post('/api/webhooks', async (request, reply) => {
    const user = allowed(request)
    const { endpoint, secret } = await webhooks.create(user.id, request.body)
    return reply.code(201).header('Location', `/api/webhooks/${endpoint.id}`).send({ data: { ...endpoint, secret } })
  })

  app.get('/api/webhooks', async (request) => {
    allowed(request)
    return { data: await webhooks.list() }
  })

  app.get('/api/webhooks/:id', async (request) => {
    allowed(request)
    return { data: await webhooks.get(parseInput(idParams, request.params, 'params').id) }
  })

  app.delete('/api/webhooks/:id', async (request, reply) => {
    allowed(request)
    await webhooks.remove(parseInput(idParams, request.params, 'params').id)
    return reply.code(204).send()
  })

  app.post('/api/webhooks/:id/test', async (request, reply) => {
    allowed(request)
    return reply.code(202).send({ data: await webhooks.sendTest(parseInput(idParams, request.params, 'params').id) })
  })

  app.post('/api/webhooks/:id/deliveries/:deliveryId/redeliver', async (request, reply) => {
    allowed(request)
    const { id, deliveryId } = parseInput(deliveryParams, request.params, 'params')
    return reply.code(202).send({ data: await webhooks.redeliver(id, deliveryId) })
  })
}
