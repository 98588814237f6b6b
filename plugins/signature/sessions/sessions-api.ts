import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { parseInput } from '../../../core/http/validate.ts'
import { sendPageImage } from '../designer/send-page-image.ts'
import type { PageImageCache } from '../rasterizer/page-image-cache.ts'
import type { SigningSessionManager } from './signing-session-manager.ts'

const idParams = z.strictObject({ id: z.string().min(1).max(64) })
const requestParams = z.strictObject({ id: z.string().min(1).max(64), requestId: z.string().min(1).max(64) })
const pageParams = z.strictObject({ id: z.string().min(1).max(64), page: z.coerce.number().int().min(1).max(10_000) })
const listQuery = z.strictObject({ mine: z.enum(['0', '1']).optional() })

/**
 * /api/signing-sessions. Every rule (who may create, see, cancel, decline) lives in the manager,
 * so the inbox page and the signer's finalize go through the same checks as this API. The
 * audit trail's address is passed explicitly (request.ip), not carried by an async context.
 */
export async function signingSessionsApi(app: FastifyInstance, { sessions, pageImages }: { sessions: SigningSessionManager; pageImages: PageImageCache }) {
  app.post('/api/signing-sessions', async (request, reply) => {
    const session = await sessions.create(request.user, request.body, request.ip)
    return reply.code(201).header('Location', `/api/signing-sessions/${session.id}`).send({ data: session })
  })

  app.get('/api/signing-sessions', async (request) => {
    const { mine } = parseInput(listQuery, request.query, 'query')
    if (mine === '1') return { data: await sessions.inbox(request.user) }
    return { data: await sessions.list(request.user) }
  })

  app.get('/api/signing-sessions/:id', async (request) => {
    const { id } = parseInput(idParams, request.params, 'params')
    return { data: await sessions.get(request.user, id) }
  })

  app.get('/api/signing-sessions/:id/document', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params')
    const document = await sessions.document(request.user, id)
    return reply.type('application/pdf')
      .header('content-disposition', `attachment; filename="${document.fileName}"`)
      .header('x-document-sha256', document.sha256)
      .header('cache-control', 'private, no-store')
      .send(document.bytes)
  })

  // The current revision's pages as images: the session page's preview, stamps included.
  app.get('/api/signing-sessions/:id/pages/:page', async (request, reply) => {
    const { id, page } = parseInput(pageParams, request.params, 'params')
    return sendPageImage(request, reply, { pdfPath: await sessions.documentPath(request.user, id) }, page, pageImages)
  })

  app.get('/api/signing-sessions/:id/certificate', async (request, reply) => {
    const { id } = parseInput(idParams, request.params, 'params')
    const certificate = await sessions.certificate(request.user, id)
    return reply.type('application/pdf')
      .header('content-disposition', `attachment; filename="${certificate.fileName}"`)
      .header('cache-control', 'private, no-store')
      .send(certificate.bytes)
  })

  app.post('/api/signing-sessions/:id/cancel', async (request) => {
    const { id } = parseInput(idParams, request.params, 'params')
    return { data: await sessions.cancel(request.user, id, request.ip, request.body) }
  })

  app.post('/api/signing-sessions/:id/remind', async (request) => {
    const { id } = parseInput(idParams, request.params, 'params')
    return { data: await sessions.remind(request.user, id, request.ip) }
  })

  // Archive renewal (PAdES B-LTA): a fresh DSS and document timestamp on the completed document.
  app.post('/api/signing-sessions/:id/renew-timestamp', async (request) => {
    const { id } = parseInput(idParams, request.params, 'params')
    const outcome = await sessions.renewTimestamp(request.user, id, request.ip)
    return { data: { outcome: outcome.outcome, ...(outcome.outcome === 'sealed' ? { sha256: outcome.sha256, missing: outcome.missing } : {}), session: await sessions.get(request.user, id) } }
  })

  // An account signer of a document session signs here (it has no template signer page).
  app.post('/api/signing-sessions/:id/requests/:requestId/sign', async (request) => {
    const { id, requestId } = parseInput(requestParams, request.params, 'params')
    const userAgent = String(request.headers['user-agent'] ?? '').slice(0, 300)
    const signed = await sessions.signOverApi(request.user, id, requestId, request.body, { address: request.ip, ...(userAgent ? { userAgent } : {}) })
    return { data: signed }
  })

  app.post('/api/signing-sessions/:id/requests/:requestId/decline', async (request) => {
    const { id, requestId } = parseInput(requestParams, request.params, 'params')
    return { data: await sessions.decline(request.user, id, requestId, request.body, request.ip) }
  })
}
