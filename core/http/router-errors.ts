import type { Socket } from 'node:net'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { toAppError } from './error-handler.ts'
import { ERR_BAD_REQUEST, ERR_HEADERS_TOO_LARGE, ERR_REQUEST_TIMEOUT, statusText, type AppError } from './errors.ts'
import { NO_STORE } from './no-store.ts'
import { securityHeadersOf } from './security.ts'

// Two kinds of error never reach the error handler or any hook: the router's (a bad URL
// encoding, an over-long parameter), answered through Fastify's `frameworkErrors`, and Node's
// HTTP parser's (a header block too large, a malformed request, a body that took longer than
// requestTimeout), answered on the bare socket through `clientErrorHandler`. Both answer here, in
// the documented shape, with the headers every other answer has.

const HEADERS = { 'cache-control': NO_STORE, 'content-type': 'application/json; charset=utf-8' }

/** Fastify's `frameworkErrors` option. */
export function answerFrameworkError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const appError = toAppError(error)
  if (appError.statusCode >= 500) request.log.error({ err: error }, 'request failed')
  else request.log.info({ code: appError.code }, 'request refused by the router')
  return reply.code(appError.statusCode).headers(securityHeadersOf(request.server)).headers(HEADERS).send(JSON.stringify(appError.toJSON()))
}

function connectionErrorFor(error: NodeJS.ErrnoException): AppError {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return ERR_REQUEST_TIMEOUT()
  if (error.code === 'HPE_HEADER_OVERFLOW') return ERR_HEADERS_TOO_LARGE()
  return ERR_BAD_REQUEST()
}

/** Fastify's `clientErrorHandler` option: `this` is the Fastify instance (for its logger). */
export function answerConnectionError(this: { log: { info: (o: object, m: string) => void } }, error: NodeJS.ErrnoException, socket: Socket) {
  // A reset connection has nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  const appError = connectionErrorFor(error)
  this.log.info({ code: appError.code, reason: error.code }, appError.statusCode === 408 ? 'request timed out' : 'request refused by the HTTP parser')
  // Nor may a second status line follow a response already under way on this connection.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify(appError.toJSON())
    const headers = Object.entries({ ...securityHeadersOf(this), ...HEADERS, 'content-length': String(Buffer.byteLength(body)), connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`).join('')
    socket.write(`HTTP/1.1 ${appError.statusCode} ${statusText(appError.statusCode)}\r\n${headers}\r\n${body}`)
  }
  socket.destroy(error)
}
