import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import { parseInput } from '../../../core/http/validate.ts'
import { sendPageImage } from '../designer/send-page-image.ts'
import type { PageImageCache } from '../rasterizer/page-image-cache.ts'
import { SIGN_LINK_COOKIE } from './sign-links.ts'
import type { SigningSessionManager } from './signing-session-manager.ts'

const tokenParams = z.strictObject({ token: z.string().min(1).max(128) })
const pageParams = z.strictObject({ token: z.string().min(1).max(128), page: z.coerce.number().int().min(1).max(10_000) })

const client = (request: FastifyRequest) => ({ address: request.ip, userAgent: String(request.headers['user-agent'] ?? '').slice(0, 300) || undefined })
const cookieOf = (request: FastifyRequest) => (request.cookies as Record<string, string | undefined> | undefined)?.[SIGN_LINK_COOKIE]

function fileName(title: string, suffix: string): string {
  return `${title.replace(/\.pdf$/i, '').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80) || 'document'}${suffix}.pdf`
}

async function sendPdf(reply: FastifyReply, bytes: Buffer, name: string) {
  return reply.type('application/pdf').header('content-disposition', `attachment; filename="${name}"`).header('cache-control', 'private, no-store').send(bytes)
}

/**
 * /api/sign-links/:token — an external signer's routes: no account and no app session. The
 * cookie set by verify is scoped to this link's path and holds a random value whose digest only
 * this link keeps. Writes are JSON (the /api rule) and the cookie is SameSite=Strict: a cross-site
 * page can neither send the cookie nor a JSON body.
 */
export async function signLinksApi(app: FastifyInstance, { sessions, pageImages }: { sessions: SigningSessionManager; pageImages: PageImageCache }) {
  app.post('/api/sign-links/:token/code', async (request, reply) => {
    const { token } = parseInput(tokenParams, request.params, 'params')
    await sessions.signLinks.sendCode(token)
    return reply.code(204).send()
  })

  app.post('/api/sign-links/:token/verify', async (request, reply) => {
    const { token } = parseInput(tokenParams, request.params, 'params')
    const { info, cookie, maxAgeSeconds } = await sessions.signLinks.verify(token, request.body, client(request))
    reply.setCookie(SIGN_LINK_COOKIE, cookie, {
      path: `/api/sign-links/${token}`, httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https', maxAge: maxAgeSeconds,
    })
    return { data: info }
  })

  app.get('/api/sign-links/:token', async (request, reply) => {
    const { token } = parseInput(tokenParams, request.params, 'params')
    reply.header('cache-control', 'private, no-store')
    return { data: await sessions.signLinks.info(token, cookieOf(request)) }
  })

  app.get('/api/sign-links/:token/document', async (request, reply) => {
    const { token } = parseInput(tokenParams, request.params, 'params')
    const document = await sessions.signLinks.document(token, cookieOf(request))
    return sendPdf(reply, await sessions.diskGet(document.key), fileName(document.title, ''))
  })

  app.get('/api/sign-links/:token/pages/:page', async (request, reply) => {
    const { token, page } = parseInput(pageParams, request.params, 'params')
    const document = await sessions.signLinks.document(token, cookieOf(request))
    return sendPageImage(request, reply, { pdfPath: await sessions.diskPath(document.key) }, page, pageImages)
  })

  app.post('/api/sign-links/:token/finalize', async (request) => {
    const { token } = parseInput(tokenParams, request.params, 'params')
    const signed = await sessions.signLinks.finalize(token, cookieOf(request), request.body, client(request))
    return { data: { status: signed.status, signed_at: signed.signed_at, session: signed.session, request: signed.request } }
  })

  // Declining with a reason (the cookie of this link's code): the signing ends for everyone.
  app.post('/api/sign-links/:token/decline', async (request, reply) => {
    const { token } = parseInput(tokenParams, request.params, 'params')
    const declined = await sessions.signLinks.decline(token, cookieOf(request), request.body, client(request))
    reply.clearCookie(SIGN_LINK_COOKIE, { path: `/api/sign-links/${token}` })
    return { data: declined }
  })

  // The completed document by the token alone (the "completed" mail's link), for 14 days.
  app.get('/api/sign-links/:token/signed', async (request, reply) => {
    const { token } = parseInput(tokenParams, request.params, 'params')
    const document = await sessions.signLinks.signed(token)
    return sendPdf(reply, await sessions.diskGet(document.key), fileName(document.title, '-signed'))
  })
}
