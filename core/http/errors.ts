// Every error the server answers with is defined once here (or in a plugin's own errors file)
// with a stable code and an HTTP status, in the spirit of Fastify's FST_ERR_* codes.
// Not @fastify/error (issue 16): its message is a util.format template, so a caller's own message
// would be appended to the default instead of replacing it; it has no details, headers or
// { statusCode, code, error, message } body; its name is 'FastifyError' and its instances are
// Fastify's own, which toAppError() must tell apart from ours. Creation costs the same (about
// 10 us either way, most of it the stack trace), so the wrapper it would need buys nothing.

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
}

export function statusText(statusCode: number): string {
  return STATUS_TEXT[statusCode] ?? 'Error'
}

export class AppError extends Error {
  readonly code: string
  readonly statusCode: number
  /** Extra machine-readable data (e.g. field issues); only ever sent for 4xx. */
  readonly details?: unknown
  /** Response headers that belong to this error (e.g. Retry-After). */
  readonly headers?: Record<string, string>

  constructor(code: string, statusCode: number, message: string, options: { details?: unknown; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'AppError'
    this.code = code
    this.statusCode = statusCode
    this.details = options.details
    this.headers = options.headers
  }

  toJSON() {
    return { statusCode: this.statusCode, code: this.code, error: statusText(this.statusCode), message: this.message }
  }
}

export interface ErrorFactory {
  (message?: string, options?: { details?: unknown; headers?: Record<string, string>; cause?: unknown }): AppError
  readonly code: string
  readonly statusCode: number
}

export function defineError(code: string, statusCode: number, defaultMessage: string): ErrorFactory {
  const make = (message?: string, options?: { details?: unknown; headers?: Record<string, string>; cause?: unknown }) =>
    new AppError(code, statusCode, message ?? defaultMessage, options)
  return Object.assign(make, { code, statusCode })
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError
}

export const ERR_VALIDATION = defineError('ERR_VALIDATION', 400, 'The request is not valid')
export const ERR_UNAUTHENTICATED = defineError('ERR_UNAUTHENTICATED', 401, 'Sign in first')
export const ERR_INVALID_CREDENTIALS = defineError('ERR_INVALID_CREDENTIALS', 401, 'Wrong e-mail or password')
export const ERR_ACCESS_DENIED = defineError('ERR_ACCESS_DENIED', 403, 'You do not have permission to do this')
export const ERR_CSRF = defineError('ERR_CSRF', 403, 'Missing or invalid CSRF token')
export const ERR_CROSS_ORIGIN = defineError('ERR_CROSS_ORIGIN', 403, 'Cross-origin requests are refused')
export const ERR_NOT_FOUND = defineError('ERR_NOT_FOUND', 404, 'Not found')
export const ERR_METHOD_NOT_ALLOWED = defineError('ERR_METHOD_NOT_ALLOWED', 405, 'Method not allowed')
export const ERR_CONFLICT = defineError('ERR_CONFLICT', 409, 'The request conflicts with the current state')
export const ERR_BODY_TOO_LARGE = defineError('ERR_BODY_TOO_LARGE', 413, 'The request body is too large')
export const ERR_UNSUPPORTED_MEDIA_TYPE = defineError('ERR_UNSUPPORTED_MEDIA_TYPE', 415, 'Send the body as application/json')
export const ERR_UNPROCESSABLE = defineError('ERR_UNPROCESSABLE', 422, 'The request cannot be processed')
export const ERR_TASK_LIMIT = defineError('ERR_TASK_LIMIT', 422, 'The work exceeded its time or memory limit')
export const ERR_TOO_MANY_ATTEMPTS = defineError('ERR_TOO_MANY_ATTEMPTS', 429, 'Too many failed attempts; try again later')
export const ERR_TOO_MANY_REQUESTS = defineError('ERR_TOO_MANY_REQUESTS', 429, 'Too many requests; try again later')
// Refusals of the request itself, raised by the router, Node's HTTP parser or the file sender.
export const ERR_BAD_REQUEST = defineError('ERR_BAD_REQUEST', 400, 'The request is malformed')
export const ERR_BAD_URL = defineError('ERR_BAD_URL', 400, 'The URL is not validly encoded')
export const ERR_FORBIDDEN_PATH = defineError('ERR_FORBIDDEN_PATH', 403, 'This path is not allowed')
export const ERR_REQUEST_TIMEOUT = defineError('ERR_REQUEST_TIMEOUT', 408, 'The request took too long to arrive')
export const ERR_PRECONDITION_FAILED = defineError('ERR_PRECONDITION_FAILED', 412, 'A precondition of the request does not hold')
export const ERR_URL_TOO_LONG = defineError('ERR_URL_TOO_LONG', 414, 'The URL is too long')
export const ERR_RANGE_NOT_SATISFIABLE = defineError('ERR_RANGE_NOT_SATISFIABLE', 416, 'The requested range is outside the file')
export const ERR_HEADERS_TOO_LARGE = defineError('ERR_HEADERS_TOO_LARGE', 431, 'The request headers (or the URL) are too large')
export const ERR_INTERNAL = defineError('ERR_INTERNAL', 500, 'Internal Server Error')
export const ERR_NOT_IMPLEMENTED = defineError('ERR_NOT_IMPLEMENTED', 501, 'Not implemented')
export const ERR_UNAVAILABLE = defineError('ERR_UNAVAILABLE', 503, 'Service unavailable')
// The database failed the request, not the request itself (core/db/database-faults.ts): try again.
export const ERR_DATABASE_UNAVAILABLE = defineError('ERR_DATABASE_UNAVAILABLE', 503, 'The database cannot be reached; try again in a moment')
export const ERR_SHUTTING_DOWN = defineError('ERR_SHUTTING_DOWN', 503, 'This server is shutting down; try again')
// The storage (a disk, a quota, the database's file) has no room for what the request writes;
// nothing of the request was kept. Free space and try again.
export const ERR_STORAGE_FULL = defineError('ERR_STORAGE_FULL', 507, 'The storage is full; nothing was saved. Try again once space is freed')
export const ERR_DATABASE_TIMEOUT = defineError('ERR_DATABASE_TIMEOUT', 503, 'The database did not finish in time; try again in a moment')
