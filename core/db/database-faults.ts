import { ERR_DATABASE_TIMEOUT, ERR_DATABASE_UNAVAILABLE, isAppError, type AppError } from '../http/errors.ts'

/** Seconds a client is told to wait (Retry-After) when the database fails it. */
const RETRY_AFTER_SECONDS = '5'

// Socket-level failures Node reports while connecting to or talking with the server.
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])
// node-postgres's own words for a connection that broke or never opened (it gives them no code).
const PG_CONNECTION_MESSAGES = /^(Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed and is not queryable|Query read timeout)/

/**
 * Whether `error` says the connection, not the statement, failed: the server is gone, restarting,
 * full, or does not answer. SQLSTATE class 08 (connection exception), 57P01-57P03 (shut down by an
 * administrator or a crash, starting up), 53300 (too many connections).
 */
export function isConnectionFault(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code))) return true
  return typeof message === 'string' && PG_CONNECTION_MESSAGES.test(message)
}

/** statement_timeout or lock_timeout cancelled the statement (57014 query_canceled, 55P03 lock_not_available). */
export function isTimeoutFault(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === '57014' || code === '55P03'
}

/** The error a request answers with for a database fault (503 with a code), or `error` itself when it is not one. */
export function asDatabaseFault(error: unknown): unknown {
  if (isAppError(error)) return error
  if (isConnectionFault(error)) return unavailable(error)
  if (isTimeoutFault(error)) return ERR_DATABASE_TIMEOUT(undefined, { cause: error, headers: { 'retry-after': RETRY_AFTER_SECONDS } })
  return error
}

export function unavailable(cause?: unknown, message?: string): AppError {
  return ERR_DATABASE_UNAVAILABLE(message, { cause, headers: { 'retry-after': RETRY_AFTER_SECONDS } })
}
