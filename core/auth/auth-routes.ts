import type { FastifyInstance } from 'fastify'
import { requireUser } from './require-user.ts'
import { signIn, signOut, type SignInDeps } from './sign-in.ts'

export async function authRoutes(app: FastifyInstance, deps: SignInDeps) {
  app.post('/api/auth/login', async (request) => ({ user: await signIn(request, request.body, deps) }))

  app.post('/api/auth/logout', async (request, reply) => {
    await signOut(request, deps.users)
    return reply.code(204).send()
  })

  app.get('/api/auth/me', async (request) => ({ user: requireUser(request.user) }))
}
