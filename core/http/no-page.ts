import type { FastifyRequest } from 'fastify'
import { ERR_NOT_FOUND, type AppError } from './errors.ts'

// Marked rather than matched on the message: the error page replaces the technical message of a
// route miss with plain words, and only that one.
const misses = new WeakSet<AppError>()

/** The 404 of an address no route answers; its message (method and path) is for the API and the log. */
export function noPageAt(request: FastifyRequest): AppError {
  const error = ERR_NOT_FOUND(`No page at ${request.method} ${request.url.split('?')[0]}`)
  misses.add(error)
  return error
}

export function isNoPage(error: AppError): boolean {
  return misses.has(error)
}
