import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ERR_CROSS_ORIGIN, ERR_UNSUPPORTED_MEDIA_TYPE } from './errors.ts'

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

// Scripts only from our own files: no inline <script> and no eval, so injected markup cannot run
// code. Alpine is its CSP build, whose expressions are parsed, not compiled with `new Function`.
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ')

export function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length']
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

function mediaType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
}

export function isJson(request: FastifyRequest): boolean {
  return mediaType(request) === 'application/json'
}

/**
 * A route may accept other bodies beside JSON (`config: { bodyTypes: ['application/pdf'] }`): only
 * types a cross-site HTML form cannot send, so the reason for JSON-only still holds.
 */
const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'])
function isDeclaredBodyType(request: FastifyRequest): boolean {
  const declared = (request.routeOptions?.config as { bodyTypes?: readonly string[] } | undefined)?.bodyTypes
  const type = mediaType(request)
  return declared !== undefined && !FORM_TYPES.has(type) && declared.includes(type)
}

/** The Origin of a browser request must be our own host: refuses cross-site writes outright. */
function isCrossOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin
  if (origin === undefined) return false
  if (origin === 'null') return true
  try {
    const from = new URL(origin)
    // Through the same URL parser, so a default port (":80", ":443") compares equal to none.
    return from.host !== new URL(`${from.protocol}//${request.headers.host ?? ''}`).host
  } catch {
    return true
  }
}

// Two years, the preload list's minimum: a browser that saw it once asks for HTTPS only.
const STRICT_TRANSPORT_SECURITY = 'max-age=63072000; includeSubDomains'

/**
 * Headers on every response, built once per app: reply.headers() copies them into each reply.
 * COOP keeps our windows out of reach of pages that open them, CORP keeps our answers out of other
 * sites' pages. HSTS only in production: said over plain http on a developer's machine it would
 * send that browser to https://localhost for two years.
 */
export function securityHeaders(options: { strictTransportSecurity: boolean }): Readonly<Record<string, string>> {
  return Object.freeze({
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    ...(options.strictTransportSecurity ? { 'strict-transport-security': STRICT_TRANSPORT_SECURITY } : {}),
  })
}

// For the answers written before any hook runs (router and connection errors).
const kSecurityHeaders = Symbol('securityHeaders')
export function securityHeadersOf(app: object): Readonly<Record<string, string>> {
  return (app as { [kSecurityHeaders]?: Readonly<Record<string, string>> })[kSecurityHeaders] ?? securityHeaders({ strictTransportSecurity: false })
}

export function registerSecurity(app: FastifyInstance, options: { jsonOnlyPrefixes: string[]; strictTransportSecurity?: boolean }) {
  const headers = securityHeaders({ strictTransportSecurity: options.strictTransportSecurity ?? false })
  app.decorate(kSecurityHeaders, headers)
  // A callback hook, not an async one: it runs on every request and needs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers)
    if (!UNSAFE_METHODS.has(request.method)) return done()
    if (isCrossOrigin(request)) return done(ERR_CROSS_ORIGIN())
    // A JSON-only API cannot be reached by a cross-site HTML form (which can only send
    // form encodings or text/plain), so cookie-authenticated API writes need no token.
    const path = request.url
    if (hasBody(request) && !isJson(request) && !isDeclaredBodyType(request) && options.jsonOnlyPrefixes.some((prefix) => path.startsWith(prefix))) {
      return done(ERR_UNSUPPORTED_MEDIA_TYPE())
    }
    done()
  })
}
