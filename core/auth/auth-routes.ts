import type { FastifyInstance } from 'fastify'
import { ERR_UNAUTHENTICATED } from '../http/errors.ts'
import { signIn, signOut, type SignInDeps } from './sign-in.ts'

export async function authRoutes(app: FastifyInstance, deps: SignInDeps) {
  app.post('/api/auth/login', async (request) => ({ user: await signIn(request, request.body, deps) }))

  app.post('/api/auth/logout', async (request, reply) => {
    await signOut(request, deps.users)
    return reply.code(204).send()
  })

  app.get('/api/auth/me', async (request) => {
    if (!request.user) throw ERR_UNAUTHENTICATED()
    return { user: request.user }
  })
}
