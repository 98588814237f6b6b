import { timingSafeEqual } from 'node:crypto'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { signIn, signOut, type SignInDeps } from '../auth/sign-in.ts'
import { ERR_CSRF, isAppError } from '../http/errors.ts'
import { acceptFormBodies, type FormBody } from '../views/form-body.ts'
import { safeNext } from '../views/safe-next.ts'

const LOGIN_VIEW = path.join(path.dirname(fileURLToPath(import.meta.url)), 'views', 'login.eta')

const field = (body: FormBody, key: string) => {
  const value = body[key]
  return typeof value === 'string' ? value : undefined
}

/**
 * Plain HTML forms cannot send the x-csrf-token header, so the login and sign-out forms carry
 * the session's token in a hidden `_csrf` field. GET /login puts a token in a pre-sign-in
 * session; a login form posted from another site has no way to know it (login CSRF).
 */
function formTokenMatches(request: FastifyRequest, sent: string | undefined): boolean {
  const expected = request.session.get('csrf')
  if (!expected || !sent) return false
  const a = Buffer.from(sent)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** GET /login, POST /login (same signIn() as POST /api/auth/login) and POST /logout. */
export async function authPages(app: FastifyInstance, deps: SignInDeps) {
  acceptFormBodies(app)

  const showForm = (reply: FastifyReply, data: { next?: string; email?: string; error?: string }) =>
    reply.page(LOGIN_VIEW, { next: data.next ?? '', email: data.email ?? '', error: data.error ?? null }, { title: 'Sign in' })

  app.get<{ Querystring: { next?: string } }>('/login', async (request, reply) => {
    const next = safeNext(request.query.next)
    if (request.user) return reply.redirect(next ?? '/dashboard', 303)
    return showForm(reply, { next })
  })

  app.post('/login', async (request, reply) => {
    const body = (request.body ?? {}) as FormBody
    const next = safeNext(field(body, 'next'))
    const email = field(body, 'email') ?? ''
    if (!formTokenMatches(request, field(body, '_csrf'))) {
      reply.code(403)
      return showForm(reply, { next, email, error: 'This form has expired. Please sign in again.' })
    }
    try {
      await signIn(request, { email, password: field(body, 'password') ?? '' }, deps)
    } catch (error) {
      if (!isAppError(error) || error.statusCode >= 500) throw error
      if (error.headers) reply.headers(error.headers)
      reply.code(error.statusCode)
      const message = error.statusCode === 400 ? 'Enter your e-mail and password.' : error.message
      return showForm(reply, { next, email, error: message })
    }
    return reply.redirect(next ?? '/dashboard', 303)
  })

  app.post('/logout', async (request, reply) => {
    const body = (request.body ?? {}) as FormBody
    const sent = field(body, '_csrf') ?? (request.headers['x-csrf-token'] as string | undefined)
    if (!formTokenMatches(request, sent)) throw ERR_CSRF()
    await signOut(request, deps.users)
    return reply.redirect('/login', 303)
  })
}
