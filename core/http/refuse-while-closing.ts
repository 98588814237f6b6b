import type { FastifyInstance } from 'fastify'
import { ERR_SHUTTING_DOWN } from './errors.ts'

/**
 * From the moment the app starts closing, a request that still reaches it (pipelined or on a
 * keep-alive connection the server cannot close while another request on it runs) answers 503
 * ERR_SHUTTING_DOWN through the error handler, like every other error, and the connection is
 * closed so that the client's next try goes to another instance. Fastify's own answer
 * (return503OnClosing, off in create-core-app.ts) has no code.
 *
 * A request already running when closing starts is answered as usual, and its connection closes
 * once the answer is out: Node closes only the connections idle when closing starts, so a
 * keep-alive client that was waiting would otherwise hold its socket, and the server's close, until
 * the shutdown deadline (20 signings in flight: the process exited 1 after 20 s). Done with the
 * keep-alive timeout rather than a header on every answer: nothing is paid per request.
 */
export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
    // Read by Node when a response ends: a connection idle after its last answer closes at once.
    app.server.keepAliveTimeout = 1
  })
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return
    reply.header('connection', 'close')
    throw ERR_SHUTTING_DOWN(undefined, { headers: { 'retry-after': '1' } })
  })
}
