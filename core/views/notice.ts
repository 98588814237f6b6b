import type { FastifyRequest } from 'fastify'

declare module '@fastify/secure-session' {
  interface SessionData {
    /** A message for the next page this browser shows (a redirect cannot carry one). */
    notice: string
  }
}

/** Leaves a message for the next page: kept in the session cookie, shown once by the layout. */
export function setNotice(request: FastifyRequest, message: string): void {
  request.session.set('notice', message)
}

/** The waiting message, if any, removed as it is read so that it shows once. */
export function takeNotice(request: FastifyRequest): string | null {
  const notice = request.session.get('notice')
  if (typeof notice !== 'string') return null
  request.session.set('notice', undefined)
  return notice
}
