import { randomBytes } from 'node:crypto'
import secureSession from '@fastify/secure-session'
import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import { cacheDecodedSessions, cacheParsedCookieHeaders } from './session-cookie-cache.ts'
import { toPublicUser, type PublicUser, type UserRecord, type UserRepository } from './user-repository.ts'

export interface SessionOptions {
  key: Buffer
  cookieName: string
  ttlSeconds: number
  /** 'auto' sets Secure when the request came over HTTPS. */
  secure: boolean | 'auto'
  users: UserRepository
  /** Decrypted cookies, and parsed Cookie headers, remembered (session-cookie-cache.ts); 0 decrypts and parses every request. */
  decodedCookieCache?: number
}

declare module '@fastify/secure-session' {
  interface SessionData {
    uid: string
    /** Issued-at, ms: the lifetime is absolute, not extended by activity. */
    iat: number
    /** The user's session version when signed in; a bump revokes this session. */
    v: number
    csrf: string
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Hits and misses of the decrypted-cookie cache, for tests and benchmarks. */
    sessionCookieCache: { hits: number; misses: number; size: number }
    /** Hits and misses of the parsed Cookie header cache, for tests and benchmarks. */
    cookieHeaderCache: { hits: number; misses: number }
  }
  interface FastifyRequest {
    /** The signed-in user, looked up on every request so deletes and role changes act at once. */
    user: PublicUser | null
  }
}

export const sessionPlugin = fp<SessionOptions>(async (app, options) => {
  await app.register(secureSession, {
    key: options.key,
    cookieName: options.cookieName,
    expiry: options.ttlSeconds,
    cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: options.secure, maxAge: options.ttlSeconds },
  })
  app.decorateRequest('user', null)
  const cookieCache = cacheDecodedSessions(app, { maxEntries: options.decodedCookieCache ?? 10_000, expirySeconds: options.ttlSeconds })
  app.decorate('sessionCookieCache', cookieCache)
  app.decorate('cookieHeaderCache', cacheParsedCookieHeaders(app, { maxEntries: options.decodedCookieCache ?? 10_000 }))

  const { users, ttlSeconds } = options
  const admit = (request: FastifyRequest, user: UserRecord | null, version: unknown) => {
    if (!user || user.sessionVersion !== version) request.session.delete()
    else request.user = toPublicUser(user)
  }
  // A callback hook with a synchronous path: a store that keeps its users in memory answers at
  // once (findByIdNow), so a signed-in request waits for no promise; others are awaited.
  // The session's fields are read as properties: through the plugin's Proxy, each get('x') call
  // allocated a Proxy of its own for the method.
  app.addHook('onRequest', (request, _reply, done) => {
    const session = request.session
    const uid = session.uid
    if (!uid) return done()
    const iat = session.iat
    const version = session.v
    if (typeof iat !== 'number' || iat + ttlSeconds * 1000 < Date.now()) {
      session.delete()
      return done()
    }
    const known = users.findByIdNow?.(uid)
    if (known !== undefined) {
      admit(request, known, version)
      return done()
    }
    users.findById(uid).then((user) => {
      admit(request, user, version)
      done()
    }, done)
  })
}, { name: 'core-session' })

export function startSession(request: FastifyRequest, user: PublicUser, sessionVersion: number): void {
  // A fresh session on sign-in: nothing from before (a fixated value) survives.
  request.session.regenerate()
  request.session.set('uid', user.id)
  request.session.set('iat', Date.now())
  request.session.set('v', sessionVersion)
  request.session.set('csrf', randomBytes(32).toString('base64url'))
  request.user = user
}

export function endSession(request: FastifyRequest): void {
  request.session.delete()
  request.user = null
}

/** The CSRF token bound to this session (created on demand for sessions that lack one). */
export function csrfToken(request: FastifyRequest): string {
  let token = request.session.get('csrf')
  if (!token) {
    token = randomBytes(32).toString('base64url')
    request.session.set('csrf', token)
  }
  return token
}
