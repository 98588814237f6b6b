import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Registry } from 'prom-client'

/** GET /metrics: the registry in Prometheus's text format, for whoever `authorize` lets through. */
export function registerMetricsRoute(app: FastifyInstance, registry: Registry, authorize: (request: FastifyRequest) => void): void {
  app.get('/metrics', async (request, reply) => {
    authorize(request)
    const text = await registry.metrics()
    return reply.header('content-type', registry.contentType).send(text)
  })
}
