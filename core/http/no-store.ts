import type { FastifyInstance } from 'fastify'

export const NO_STORE = 'no-store'

/**
 * Pages and API answers depend on the session (who is signed in, the CSRF token): none may be
 * kept by the browser or a shared cache, or Back after sign-out shows the previous page. A
 * response that already states its caching (static assets, a route's own ETag scheme) keeps it.
 */
export function registerNoStore(app: FastifyInstance) {
  // A callback hook, not an async one: it runs on every response and needs no promise.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', NO_STORE)
    done(null, payload)
  })
}
