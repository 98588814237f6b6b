import type { FastifyInstance } from 'fastify'
import type { Readiness } from './readiness.ts'

/**
 * GET /healthz (liveness) and GET /readyz (readiness), for an orchestrator and a load balancer.
 * Neither reads a session or writes an access line (logLevel 'silent': a probe every few seconds
 * per balancer would drown the log); neither is rate-limited (no route limit is declared on them).
 * Liveness touches nothing but the event loop: a database outage must not get every instance
 * restarted. Readiness says whether this instance should get traffic now.
 */
export function registerProbes(app: FastifyInstance, readiness: Readiness): void {
  app.get('/healthz', { logLevel: 'silent' }, (_request, reply) => {
    reply.send({ status: 'ok' })
  })
  app.get('/readyz', { logLevel: 'silent' }, async (_request, reply) => {
    const { ready, checks } = await readiness.report()
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unready', checks })
  })
}
