import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import type { NavigationItem, PanelContext } from '../../../core/panel/panel-plugin.ts'
import type { TopbarItem } from '../../../core/views/topbar.ts'
import { signatureAssetsUrl } from '../public-assets.ts'
import { MY_SIGNATURES_ROUTE, SIGNER_ROUTE } from '../route-names.ts'
import { SESSION_PERMISSION } from '../permissions.ts'
import { NEW_SIGNATURE_UUID } from '../library/new-signature.ts'
import { sendSignaturePad } from './signature-pad-asset.ts'

const VIEW = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'views', 'my-signatures.eta')

const PLACEHOLDER = { templateKey: '__template__', signatureUuid: '00000000-0000-0000-0000-000000000000' }

/**
 * "My signatures": a signed-in user's own signatures over /api/signatures (draw or upload an
 * image, issue or upload a certificate, rename, set primary, revoke), and the records they can
 * sign, each linking to the signer page. A page of SignaturePlugin (`.pages(['my-signatures'])`),
 * which also serves the assets; the links need its 'signer' page on the same panel.
 */
export function mySignaturesNavigation(panel: PanelContext): NavigationItem {
  return { label: 'My signatures', url: `/${panel.path}/my-signatures`, group: 'Signatures' }
}

/** My signatures in every page's top bar. */
export function mySignaturesTopbarItem(panel: PanelContext): TopbarItem {
  return { key: 'signature.my-signatures', label: 'My signatures', url: `/${panel.path}/my-signatures` }
}

export function mountMySignaturesPage(panel: PanelContext, app: FastifyInstance): void {
  app.get('/my-signatures', { config: { name: MY_SIGNATURES_ROUTE } }, async (request, reply) => {
    const templates = [...(await app.signature.registry.fresh()).all().values()].map((t) => ({ key: t.key(), label: t.label() }))
    const config = {
      api: '/api/signatures',
      signables: '/api/signables/',
      templates,
      // Whose signings are "by you" (the list's Sign / Sign again): the signed-in user.
      me: request.user?.id ?? null,
      // "Send for signature" per record, for those who may start a session (the form checks again).
      sendUrl: app.signature.links.sendForSignature && app.policy.can(request.user?.role, SESSION_PERMISSION.create) ? app.signature.links.sendForSignature({ template: PLACEHOLDER.templateKey, signable: 'RECORD_ID' }) : null,
      // Filled in by the script: template key and signature uuid replace the placeholders.
      signerUrl: panel.url(SIGNER_ROUTE.page, PLACEHOLDER),
      placeholder: PLACEHOLDER,
      // The signer page's uuid when the user has no signature yet (it lets them make one there).
      newSignature: NEW_SIGNATURE_UUID,
      // "Verify" beside each download: the report of that signed document (a panel's 'verify' page).
      verifyUrl: app.signature.links.verify?.({ signature: PLACEHOLDER.signatureUuid }) ?? null,
    }
    return reply.page(VIEW, {
      config,
      scripts: [`/${panel.path}/my-signatures/signature_pad.js`, `${signatureAssetsUrl(panel.path)}signature-drawing.js`, `${signatureAssetsUrl(panel.path)}my-signatures.js`],
    }, { title: 'My signatures' })
  })

  app.get('/my-signatures/signature_pad.js', async (_request, reply) => sendSignaturePad(reply))
}
