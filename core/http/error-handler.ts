import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ZodError } from 'zod'
import {
  AppError, ERR_BODY_TOO_LARGE, ERR_INTERNAL, ERR_METHOD_NOT_ALLOWED, ERR_NOT_FOUND, ERR_UNSUPPORTED_MEDIA_TYPE, ERR_VALIDATION, isAppError,
} from './errors.ts'

/** Renders an error as an HTML page for browser navigations; the view layer plugs one in. */
export type ErrorPageRenderer = (request: FastifyRequest, reply: FastifyReply, error: AppError) => Promise<unknown> | unknown

const FASTIFY_CODES: Record<string, (message: string) => AppError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => ERR_BODY_TOO_LARGE(),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => ERR_UNSUPPORTED_MEDIA_TYPE(),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => ERR_VALIDATION('Invalid Content-Length'),
  FST_ERR_CTP_EMPTY_JSON_BODY: () => ERR_VALIDATION('The JSON body is empty'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => ERR_VALIDATION('The body is not valid JSON'),
  FST_ERR_VALIDATION: (message) => ERR_VALIDATION(message),
}

/** Everything thrown becomes { statusCode, code, error, message } with a stable code. */
export function toAppError(error: unknown): AppError {
  if (isAppError(error)) return error
  if (error instanceof ZodError) return ERR_VALIDATION(error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '))
  const fastifyError = error as FastifyError
  const mapped = fastifyError?.code ? FASTIFY_CODES[fastifyError.code] : undefined
  if (mapped) return mapped(fastifyError.message)
  if (fastifyError instanceof SyntaxError && (fastifyError as FastifyError).statusCode === 400) return ERR_VALIDATION('The body is not valid JSON')
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
    const error = toAppError(rawError)
    if (error.statusCode >= 500) request.log.error({ err: error.cause ?? rawError }, 'request failed')
    return send(request, reply, error)
  })

  app.setNotFoundHandler(async (request, reply) => {
    const error = ['GET', 'HEAD'].includes(request.method) || request.url.startsWith('/api/')
      ? ERR_NOT_FOUND(`No page at ${request.method} ${request.url.split('?')[0]}`)
      : ERR_METHOD_NOT_ALLOWED()
    return send(request, reply, error)
  })
}
