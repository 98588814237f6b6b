import type { FastifyInstance } from 'fastify'
import { ERR_SHUTTING_DOWN } from './errors.ts'

/**
 * From the moment the app starts closing, a request that still reaches it (pipelined or on a
 * keep-alive connection the server cannot close while another request on it runs) answers 503
 * ERR_SHUTTING_DOWN through the error handler, like every other error, and the connection is
 * closed so that the client's next try goes to another instance. Fastify's own answer
 * (return503OnClosing, off in create-core-app.ts) has no code.
 */
export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false
  app.addHook('preClose', async () => { closing = true })
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return
    reply.header('connection', 'close')
    throw ERR_SHUTTING_DOWN(undefined, { headers: { 'retry-after': '1' } })
  })
}
