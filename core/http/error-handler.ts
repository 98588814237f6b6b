import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ZodError } from 'zod'
import {
  AppError, ERR_ACCESS_DENIED, ERR_BAD_REQUEST, ERR_BAD_URL, ERR_BODY_TOO_LARGE, ERR_DATABASE_UNAVAILABLE, ERR_FORBIDDEN_PATH, ERR_HEADERS_TOO_LARGE, ERR_INTERNAL,
  ERR_METHOD_NOT_ALLOWED, ERR_NOT_FOUND, ERR_PRECONDITION_FAILED, ERR_RANGE_NOT_SATISFIABLE, ERR_REQUEST_TIMEOUT, ERR_SHUTTING_DOWN, ERR_STORAGE_FULL, ERR_UNSUPPORTED_MEDIA_TYPE,
  ERR_URL_TOO_LONG, ERR_VALIDATION, isAppError, type ErrorFactory,
} from './errors.ts'
import { noPageAt } from './no-page.ts'

/** Renders an error as an HTML page for browser navigations; the view layer plugs one in. */
export type ErrorPageRenderer = (request: FastifyRequest, reply: FastifyReply, error: AppError) => Promise<unknown> | unknown

const FASTIFY_CODES: Record<string, (message: string) => AppError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => ERR_BODY_TOO_LARGE(),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => ERR_UNSUPPORTED_MEDIA_TYPE(),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => ERR_VALIDATION('Invalid Content-Length'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => ERR_VALIDATION('The JSON body is empty'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => ERR_VALIDATION('The body is not valid JSON'),
  FST_ERR_VALIDATION: (message) => ERR_VALIDATION(message),
  FST_ERR_BAD_URL: () => ERR_BAD_URL(),
  FST_ERR_MAX_PARAM_LENGTH: () => ERR_URL_TOO_LONG(),
  // @fastify/static refusing a path with ".." in it.
  FST_STATIC_FORBIDDEN_PATH: () => ERR_FORBIDDEN_PATH(),
}

/**
 * Client errors from libraries that carry only a status (http-errors, as @fastify/send raises for
 * a bad Range or If-Match): the status is theirs to give, the code and message are ours.
 */
const BY_STATUS: Record<number, ErrorFactory> = {
  400: ERR_BAD_REQUEST,
  403: ERR_ACCESS_DENIED,
  404: ERR_NOT_FOUND,
  405: ERR_METHOD_NOT_ALLOWED,
  408: ERR_REQUEST_TIMEOUT,
  412: ERR_PRECONDITION_FAILED,
  413: ERR_BODY_TOO_LARGE,
  414: ERR_URL_TOO_LONG,
  415: ERR_UNSUPPORTED_MEDIA_TYPE,
  416: ERR_RANGE_NOT_SATISFIABLE,
  431: ERR_HEADERS_TOO_LARGE,
}

/**
 * 5xx answers that are not this request's failure and are logged once where they start: an
 * unreachable database by its health watch (core/db/database-health.ts), a shutdown by server.ts.
 */
const EXPECTED_5XX = new Set([ERR_DATABASE_UNAVAILABLE.code, ERR_SHUTTING_DOWN.code])

/** ENOSPC and EDQUOT from Node, SQLITE_FULL from SQLite: the same fault, a full storage. */
const STORAGE_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL'])

/** The client hung up (or its connection was cut) before the request was read: nothing failed here. */
export function isClientAbort(error: unknown, request: FastifyRequest): boolean {
  const code = (error as NodeJS.ErrnoException)?.code
  const gone = request.raw.destroyed || request.raw.socket?.destroyed === true
  return gone && (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || (error as Error)?.message === 'aborted')
}

/** Everything thrown becomes { statusCode, code, error, message } with a stable code. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error
  if (error instanceof ZodError) return ERR_VALIDATION(error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '))
  const fastifyError = error as FastifyError
  const mapped = fastifyError?.code ? FASTIFY_CODES[fastifyError.code] : undefined
  if (mapped) return mapped(fastifyError.message)
  if (fastifyError instanceof SyntaxError && (fastifyError as FastifyError).statusCode === 400) return ERR_VALIDATION('The body is not valid JSON')
  // A full disk reached by a write that did not go through core/storage (SQLite's own file, a library's).
  if (fastifyError?.code && STORAGE_FULL_CODES.has(fastifyError.code)) return ERR_STORAGE_FULL(undefined, { cause: error })
  const status = fastifyError?.statusCode
  if (typeof status === 'number' && status >= 400 && status < 500) return (BY_STATUS[status] ?? ERR_BAD_REQUEST)(undefined, { cause: error })
  return ERR_INTERNAL(undefined, { cause: error })
}

export function wantsHtml(request: FastifyRequest): boolean {
  if (request.url.startsWith('/api/')) return false
  const accept = request.headers.accept ?? ''
  return accept.includes('text/html')
}

export function registerErrorHandling(app: FastifyInstance, options: { renderPage?: ErrorPageRenderer } = {}) {
  const send = async (request: FastifyRequest, reply: FastifyReply, error: AppError) => {
    if (error.headers) reply.headers(error.headers)
    reply.code(error.statusCode)
    if (options.renderPage && wantsHtml(request)) return options.renderPage(request, reply, error)
    return reply.type('application/json; charset=utf-8').send(error.toJSON())
  }

  app.setErrorHandler(async (rawError, request, reply) => {
    if (isClientAbort(rawError, request)) {
      // Routine on the internet (a closed tab, a lost network, our own request timeout): info, not error.
      request.log.info({ code: (rawError as NodeJS.ErrnoException).code }, 'client aborted the request')
      return send(request, reply, ERR_BAD_REQUEST('The request was aborted'))
    }
    const error = toAppError(rawError)
    if (error.statusCode >= 500 && !EXPECTED_5XX.has(error.code)) request.log.error({ err: error.cause ?? rawError }, 'request failed')
    return send(request, reply, error)
  })

  app.setNotFoundHandler(async (request, reply) => {
    const error = ['GET', 'HEAD'].includes(request.method) || request.url.startsWith('/api/')
      ? noPageAt(request)
      : ERR_METHOD_NOT_ALLOWED()
    return send(request, reply, error)
  })
}
