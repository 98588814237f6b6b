import type { FastifyRequest } from 'fastify'
import { z } from 'zod'
import { ERR_INVALID_CREDENTIALS, ERR_TOO_MANY_ATTEMPTS } from '../http/errors.ts'
import { parseInput } from '../http/validate.ts'
import type { LoginThrottle } from './login-throttle.ts'
import { dummyHash, verifyPassword } from './passwords.ts'
import { endSession, startSession } from './session.ts'
import { toPublicUser, type PublicUser, type UserRepository } from './user-repository.ts'
import { waitInWords } from '../http/wait-in-words.ts'

export const credentialsSchema = z
  .object({
    email: z.string().trim().min(1, 'required').max(254),
    password: z.string().min(1, 'required').max(1024),
  })
  .strict()

export interface SignInDeps {
  users: UserRepository
  throttle: LoginThrottle
}

/** Shared by the JSON login and the login page: same checks, same throttle, same answers. */
export async function signIn(request: FastifyRequest, input: unknown, deps: SignInDeps): Promise<PublicUser> {
  const { email, password } = parseInput(credentialsSchema, input, 'body')
  const client = request.ip
  const wait = await deps.throttle.retryAfter(email, client)
  if (wait > 0) throw ERR_TOO_MANY_ATTEMPTS(`Too many failed sign-ins; try again ${waitInWords(wait)}`, { headers: { 'Retry-After': String(wait) } })

  const user = await deps.users.findByEmail(email)
  // Verify against a dummy hash when the e-mail is unknown, so timing does not reveal accounts.
  const ok = await verifyPassword(password, user?.passwordHash ?? (await dummyHash()))
  if (!user || !ok) {
    await deps.throttle.recordFailure(email, client)
    request.log.info({ event: 'sign-in-failed' }, 'sign-in failed')
    throw ERR_INVALID_CREDENTIALS()
  }
  await deps.throttle.recordSuccess(email, client)
  const publicUser = toPublicUser(user)
  startSession(request, publicUser, user.sessionVersion)
  return publicUser
}

/**
 * Signing out revokes every session of the user (their session version moves on): the cookie is
 * stateless, so a copy of it taken before sign-out would otherwise stay valid until it expires.
 */
export async function signOut(request: FastifyRequest, users: UserRepository): Promise<void> {
  if (request.user) await users.revokeSessions(request.user.id)
  endSession(request)
}
