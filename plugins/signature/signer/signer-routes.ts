import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { requireUser } from '../../../core/auth/require-user.ts'
import { parseInput } from '../../../core/http/validate.ts'
import { cameFrom } from '../../../core/views/came-from.ts'
import type { PanelContext } from '../../../core/panel/panel-plugin.ts'
import type { SignableSource } from '../contracts/signable-source.ts'
import { sendPageImage } from '../designer/send-page-image.ts'
import { signatureAssetsUrl } from '../public-assets.ts'
import { SIGNER_ROUTE } from '../route-names.ts'
import { SignerService } from './signer-service.ts'
import { NEW_SIGNATURE_UUID } from '../library/new-signature.ts'
import { sendSignaturePad } from './signature-pad-asset.ts'

const SIGNER_VIEW = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'views', 'signer.eta')
// Any uuid: the page replaces it with the one it opens (the strip's link and the new signature's).
const SOME_UUID = '00000000-0000-0000-0000-000000000000'

const templateKey = z.string().min(1).max(120)
const pageParams = z.strictObject({ templateKey, signatureUuid: z.string().min(1).max(64) })
const targetQuery = z.strictObject({ signable: z.string().trim().min(1).max(120).optional(), request: z.string().trim().min(1).max(120).optional() })
// The page alone also takes where Cancel leads back to (kept when the strip reopens the page).
const pageQuery = targetQuery.extend({ back: z.string().max(2000).optional() })
const imageParams = z.strictObject({ templateKey, page: z.coerce.number().int().min(1).max(10_000) })

/**
 * The signer page and its calls, on every panel the plugin is on. The panel's gate decides who may
 * enter; beyond that the signature must be the user's own active library signature, a record must
 * be one the user may see (404 otherwise) and have a slot left for them, and a session request
 * must be addressed to them. Only the page records a session request's opening.
 */
export function mountSignerRoutes(panel: PanelContext, app: FastifyInstance, records: () => SignableSource | undefined): void {
  let service: SignerService | undefined
  // Built on first use: app.signature may be decorated after this panel's plugins boot.
  const signer = () => (service ??= new SignerService(app.signature, records(), app.policy))

  app.get('/signature-templates/:templateKey/sign/:signatureUuid', { config: { name: SIGNER_ROUTE.page } }, async (request, reply) => {
    const user = requireUser(request.user)
    const { templateKey: key, signatureUuid } = parseInput(pageParams, request.params, 'params')
    const { back, ...query } = parseInput(pageQuery, request.query, 'query')
    const cancelUrl = cameFrom(request, back, `/${panel.path}`)
    const target = { ...(query.signable ? { signable: query.signable } : {}), ...(query.request ? { request: query.request } : {}) }
    const signWithUrl = panel.url(SIGNER_ROUTE.page, { templateKey: key, signatureUuid: SOME_UUID }, { ...target, back: cancelUrl })
    if (signatureUuid === NEW_SIGNATURE_UUID) {
      // A link made before the user had a signature (an invitation) leads to where they are now:
      // with one made since, to the signer page with it, not to making a second one.
      const active = (await app.signature.library.list(user.id)).filter((s) => s.status === 'active')
      const current = active.find((s) => s.primary) ?? active[0]
      if (current) return reply.redirect(signWithUrl.replace(SOME_UUID, encodeURIComponent(current.uuid)))
    }
    // No signature yet (a first-time signer): the document first; the page asks for a signature
    // (drawn or typed in a dialog, kept through /api/signatures) at the first field they click.
    const active = signatureUuid === NEW_SIGNATURE_UUID ? null : await signer().activeSignature(user, signatureUuid)
    const template = signer().template(key)
    const { recordTitle, signedApart } = await signer().open(user, key, query, request.ip)
    const assets = signatureAssetsUrl(panel.path)
    const config = {
      templateKey: key,
      signature: active?.uuid ?? null,
      ...target,
      metaUrl: panel.url(SIGNER_ROUTE.meta, { templateKey: key }, { ...(active ? { signature: active.uuid } : {}), ...target }),
      finalizeUrl: panel.url(SIGNER_ROUTE.finalize, { templateKey: key }),
      pageImageUrl: panel.url(SIGNER_ROUTE.pageImage, { templateKey: key, page: 0 }, target),
      // The strip switches signatures by opening this page again with another uuid.
      signWithUrl,
      placeholder: SOME_UUID,
      cancelUrl,
      ...(active ? {} : { newSignature: { api: '/api/signatures', name: user.name } }),
    }
    return reply.page(SIGNER_VIEW, {
      config,
      label: template.label(),
      recordTitle,
      signedApart,
      signatureLabel: active?.label ?? null,
      fontCss: active ? null : `${assets}signature-font.css`,
      scripts: [...(active ? [] : [panel.url(SIGNER_ROUTE.signaturePad), `${assets}signature-drawing.js`]), `${assets}signer.js`],
    }, { title: `Sign: ${template.label()}` })
  })

  app.get('/signature-templates/signer/signature_pad.js', { config: { name: SIGNER_ROUTE.signaturePad } }, async (_request, reply) => sendSignaturePad(reply))

  app.get('/signature-templates/:templateKey/signer/meta', { config: { name: SIGNER_ROUTE.meta } }, async (request) => {
    const { templateKey: key } = parseInput(z.object({ templateKey }), request.params, 'params')
    return { data: await signer().meta(requireUser(request.user), key, request.query) }
  })

  app.post('/signature-templates/:templateKey/signer/finalize', { config: { name: SIGNER_ROUTE.finalize } }, async (request) => {
    const { templateKey: key } = parseInput(z.object({ templateKey }), request.params, 'params')
    return { data: await signer().finalize(requireUser(request.user), key, request.body, request.ip) }
  })

  app.get('/signature-templates/:templateKey/signer/pages/:page', { config: { name: SIGNER_ROUTE.pageImage } }, async (request, reply) => {
    const user = requireUser(request.user)
    const { templateKey: key, page } = parseInput(imageParams, request.params, 'params')
    const target = await signer().target(user, key, parseInput(targetQuery, request.query, 'query'))
    return sendPageImage(request, reply, target.source, page, app.signature.pageImages)
  })
}
