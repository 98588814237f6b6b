import { timingSafeEqual } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { ERR_CSRF } from './errors.ts'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * For cookie-authenticated page writes: the x-csrf-token header must match the session's token;
 * throws ERR_CSRF otherwise. Synchronous, so a callback hook can run it with no promise.
 */
export function verifyCsrf(request: FastifyRequest): void {
  if (SAFE.has(request.method)) return
  const expected = request.session.get('csrf') as string | undefined
  const sent = request.headers['x-csrf-token']
  if (!expected || typeof sent !== 'string') throw ERR_CSRF()
  const a = Buffer.from(sent)
  const b = Buffer.from(expected)
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw ERR_CSRF()
}
