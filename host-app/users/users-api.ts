import { requireUser, rememberingQueryParser, parseInput } from '../../core/index.ts'
import type { FastifyInstance } from 'fastify'
import { createdUserResponse, userListResponse, userResponse } from './user-response-schemas.ts'
import { userListQuerySchema } from './user-schemas.ts'
import type { UserService } from './user-service.ts'

interface IdParams { id: string }

export async function usersApi(app: FastifyInstance, { service }: { service: UserService }) {
  const listQueryOf = rememberingQueryParser((query) => parseInput(userListQuerySchema, query, 'query'))
  // Signed in first: a caller without a session learns 401, not what the query may look like.
  app.get('/api/users', { schema: { response: userListResponse } }, async (request) => service.list(requireUser(request.user), listQueryOf(request)))

  app.get<{ Params: IdParams }>('/api/users/:id', { schema: { response: userResponse } }, async (request) => ({ data: await service.get(request.user, request.params.id) }))

  app.post('/api/users', { schema: { response: createdUserResponse } }, async (request, reply) => {
    const user = await service.create(request.user, request.body)
    return reply.code(201).header('Location', `/api/users/${encodeURIComponent(user.id)}`).send({ data: user })
  })

  app.patch<{ Params: IdParams }>('/api/users/:id', { schema: { response: userResponse } }, async (request) => ({ data: await service.update(request.user, request.params.id, request.body) }))

  app.delete<{ Params: IdParams }>('/api/users/:id', async (request, reply) => {
    await service.remove(request.user, request.params.id)
    return reply.code(204).send()
  })
}
