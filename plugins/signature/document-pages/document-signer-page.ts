import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { requireUser } from '../../../core/auth/require-user.ts'
import { parseInput } from '../../../core/http/validate.ts'
import type { PanelContext } from '../../../core/panel/panel-plugin.ts'
import { signatureAssetsUrl } from '../public-assets.ts'
import { DOCUMENT_ROUTE, SESSION_ROUTE, SIGNER_ROUTE } from '../route-names.ts'
import { DOCUMENT_TEMPLATE_KEY } from '../sessions/document-template-key.ts'
import { sendSignaturePad } from '../signer/signature-pad-asset.ts'

const VIEW = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'views', 'document-sign.eta')
const params = z.strictObject({ requestId: z.string().min(1).max(64) })

/** The address of a panel route, or `fallback` when the panel lacks that page. */
function urlOr(panel: PanelContext, name: string, routeParams: Record<string, string>, fallback: string): string {
  try {
    return panel.url(name, routeParams)
  } catch {
    return fallback
  }
}

/**
 * The signing page of a document session for a signer with an account (the inbox and the
 * invitation link here): the whole document with their fields, then a signature of their library
 * or one they make here, through POST /api/signing-sessions/:id/requests/:requestId/sign, which
 * decides (theirs, in turn, once). Opening it is one 'opened' event in the history, as on the
 * template signer page; a request already signed or ended leads to its session's page.
 */
export function mountDocumentSignerPage(panel: PanelContext, app: FastifyInstance): void {
  const sessions = () => app.signature.sessions

  app.get('/documents/requests/:requestId/sign', { config: { name: DOCUMENT_ROUTE.sign } }, async (request, reply) => {
    const user = requireUser(request.user)
    const { requestId } = parseInput(params, request.params, 'params')
    // Only a visit that can sign is an opening in the history.
    const view = await sessions().view(user, DOCUMENT_TEMPLATE_KEY, requestId, request.ip, { recordOpening: false })
    const sessionUrl = urlOr(panel, SESSION_ROUTE.show, { id: view.sessionId }, `/${panel.path}/sessions/${encodeURIComponent(view.sessionId)}`)
    if (view.status !== 'pending') return reply.redirect(sessionUrl, 303)
    await sessions().view(user, DOCUMENT_TEMPLATE_KEY, requestId, request.ip)
    const session = await sessions().get(user, view.sessionId)
    const own = session.requests.find((r) => r.id === requestId)!
    const pages = (await app.signature.pageImages.pages(view.documentPath)).map((size, index) => ({ page: index + 1, width: size.width, height: size.height }))
    const signatures = (await app.signature.library.list(user.id)).filter((s) => s.status === 'active')
      .sort((a, b) => Number(b.primary) - Number(a.primary))
      .map((s) => ({ uuid: s.uuid, label: s.label, imageUrl: `/api/signatures/${encodeURIComponent(s.uuid)}/image` }))
    const api = `/api/signing-sessions/${encodeURIComponent(session.id)}`
    const assets = signatureAssetsUrl(panel.path)
    reply.header('cache-control', 'private, no-store')
    return reply.page(VIEW, {
      config: {
        mode: 'account',
        info: { sessionId: session.id, title: session.signable.title, signer: { name: user.name, email: user.email }, message: session.message, status: own.status, pages, fields: own.fields },
        pageUrl: `${api}/pages/__page__`,
        documentUrl: session.documentUrl,
        signUrl: `${api}/requests/${encodeURIComponent(requestId)}/sign`,
        signatures,
        newSignatureUrl: '/api/signatures',
        doneUrl: sessionUrl,
      },
      styles: [`${assets}documents.css`, `${assets}signature-font.css`],
      scripts: [urlOr(panel, SIGNER_ROUTE.signaturePad, {}, `/${panel.path}/documents/signature_pad.js`), `${assets}signature-drawing.js`],
      module: `${assets}document-signing.js`,
    }, { title: `Sign: ${session.signable.title}` })
  })

  // signature_pad for a panel without the template signer page (which serves it too).
  app.get('/documents/signature_pad.js', async (_request, reply) => sendSignaturePad(reply))
}
