import type { FastifyInstance } from 'fastify'
import { requireUser } from '../../../core/auth/require-user.ts'
import type { SignatureLibrary } from './signature-library.ts'

interface UuidParams { uuid: string }

/** /api/signatures: every signed-in user manages their own signatures, and only those. */
export async function signatureLibraryApi(app: FastifyInstance, { library }: { library: SignatureLibrary }) {
  app.get('/api/signatures', async (request) => ({ data: await library.list(requireUser(request.user).id) }))

  // A drawn signature as a data URL plus an uploaded PKCS#12 fit well under 2 MiB.
  app.post('/api/signatures', { bodyLimit: 2 * 1024 * 1024 }, async (request, reply) => {
    const signature = await library.create(requireUser(request.user), request.body)
    return reply.code(201).header('Location', `/api/signatures/${signature.uuid}`).send({ data: signature })
  })

  app.get<{ Params: UuidParams }>('/api/signatures/:uuid', async (request) => ({ data: await library.get(requireUser(request.user).id, request.params.uuid) }))

  app.patch<{ Params: UuidParams }>('/api/signatures/:uuid', async (request) => ({ data: await library.update(requireUser(request.user).id, request.params.uuid, request.body) }))

  app.delete<{ Params: UuidParams }>('/api/signatures/:uuid', async (request, reply) => {
    await library.revoke(requireUser(request.user).id, request.params.uuid)
    return reply.code(204).send()
  })

  app.get<{ Params: UuidParams }>('/api/signatures/:uuid/image', async (request, reply) => {
    const image = await library.image(requireUser(request.user).id, request.params.uuid)
    return reply.type(image.mime).header('Cache-Control', 'private, max-age=300').send(image.bytes)
  })
}
