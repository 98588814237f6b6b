import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { Policy } from './access/policy.ts'
import { authRoutes } from './auth/auth-routes.ts'
import { createMemoryLoginThrottle, type LoginThrottle, type ThrottleOptions } from './auth/login-throttle.ts'
import { sessionPlugin } from './auth/session.ts'
import type { UserRepository } from './auth/user-repository.ts'
import { AccessLogController } from './http/access-log.ts'
import { registerErrorHandling, type ErrorPageRenderer } from './http/error-handler.ts'
import { registerNoStore } from './http/no-store.ts'
import { writeResponsesAtEndOfTurn } from './http/end-of-turn-writes.ts'
import { answerConnectionError, answerFrameworkError } from './http/router-errors.ts'
import { registerSecurity } from './http/security.ts'
import { refuseWhileClosing } from './http/refuse-while-closing.ts'
import { prepareMetrics, registerObservability, type ObservabilityOptions } from './observability/observability.ts'

export interface CoreAppOptions {
  logger?: FastifyServerOptions['logger']
  trustProxy?: boolean
  /** Bytes; larger bodies answer 413 before any handler runs. */
  bodyLimit: number
  /** Milliseconds a client has to send a whole request (headers and body); then 408 and the connection closes. */
  requestTimeoutMs: number
  session: { key: Buffer; cookieName: string; ttlSeconds: number; secure: boolean | 'auto'; decodedCookieCache?: number }
  throttle: ThrottleOptions | LoginThrottle
  policy: Policy
  users: UserRepository
  /** Tell browsers to use HTTPS only (Strict-Transport-Security): for production behind TLS. */
  strictTransportSecurity?: boolean
  /** Set later by the view layer; until then errors are JSON everywhere. */
  errorPages?: { render?: ErrorPageRenderer }
  /** /healthz and /readyz always; /metrics when `metrics` is given (METRICS=on). */
  observability?: ObservabilityOptions
}

declare module 'fastify' {
  interface FastifyInstance {
    policy: Policy
    users: UserRepository
    errorPages: { render?: ErrorPageRenderer }
  }
}

/** The framework's part of an application: security, errors, session, sign-in, access policy. */
export async function createCoreApp(options: CoreAppOptions): Promise<FastifyInstance> {
  let app: FastifyInstance | undefined
  const metrics = await prepareMetrics(options.observability ?? {}, (name, error) => app?.log.warn({ err: error, metric: name }, 'a metric could not be collected'))
  app = Fastify({
    // Fastify reports finished requests to the log controller only when there is a logger: with
    // metrics on, which are counted there, an app without one gets a silent one.
    logger: options.logger ?? (metrics ? { level: 'silent' } : false),
    // One line per request instead of Fastify's two; with metrics on it also counts the request.
    logController: new AccessLogController(metrics?.prometheus.http),
    trustProxy: options.trustProxy ?? false,
    bodyLimit: options.bodyLimit,
    // Ids and keys are short; a long URL is an attack or a mistake.
    routerOptions: { maxParamLength: 200 },
    // Without a limit a client that sends its body a byte at a time holds a connection forever.
    requestTimeout: options.requestTimeoutMs,
    http: {
      requestTimeout: options.requestTimeoutMs,
      headersTimeout: Math.min(60_000, options.requestTimeoutMs),
      // Node looks for expired requests on this interval (30 s by default): a fraction of the limit.
      connectionsCheckingInterval: Math.min(5_000, Math.max(50, Math.floor(options.requestTimeoutMs / 4))),
    },
    // refuse-while-closing.ts answers instead, with a code.
    return503OnClosing: false,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerConnectionError,
  })
  const errorPages = options.errorPages ?? {}
  app.decorate('policy', options.policy)
  app.decorate('users', options.users)
  app.decorate('errorPages', errorPages)

  registerSecurity(app, { jsonOnlyPrefixes: ['/api/'], strictTransportSecurity: options.strictTransportSecurity ?? false })
  registerNoStore(app)
  refuseWhileClosing(app)
  writeResponsesAtEndOfTurn(app)
  registerObservability(app, metrics)
  registerErrorHandling(app, { renderPage: (request, reply, error) => (errorPages.render ? errorPages.render(request, reply, error) : reply.send(error.toJSON())) })

  await app.register(sessionPlugin, { ...options.session, users: options.users })
  const throttle = 'retryAfter' in options.throttle ? options.throttle : createMemoryLoginThrottle(options.throttle)
  await app.register(authRoutes, { users: options.users, throttle })
  return app
}
