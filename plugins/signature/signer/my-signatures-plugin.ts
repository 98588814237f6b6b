import { createReadStream } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import type { PanelContext, PanelPlugin } from '../../../core/panel/panel-plugin.ts'
import { signatureAssetsUrl } from '../public-assets.ts'
import { SIGNER_ROUTE } from './signer-routes.ts'

const VIEW = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'views', 'my-signatures.eta')
const require = createRequire(import.meta.url)
// signature_pad from node_modules (the machines that run this have no internet): smoothing and
// pressure-like strokes that a hand-rolled canvas would not give.
const SIGNATURE_PAD = path.join(path.dirname(require.resolve('signature_pad')), 'signature_pad.umd.min.js')

export const MY_SIGNATURES_ROUTE = 'signature.my-signatures'
const PLACEHOLDER = { templateKey: '__template__', signatureUuid: '00000000-0000-0000-0000-000000000000' }

/**
 * "My signatures": a signed-in user's own signatures over /api/signatures (draw or upload an
 * image, issue or upload a certificate, rename, set primary, revoke), and the records they can
 * sign, each linking to the signer page. Needs SignaturePlugin on the same panel (signer page, assets).
 */
export class MySignaturesPlugin implements PanelPlugin {
  readonly id = 'my-signatures'

  static make(): MySignaturesPlugin {
    return new MySignaturesPlugin()
  }

  register(panel: PanelContext): void {
    panel.navigationItem({ label: 'My signatures', url: `/${panel.path}/my-signatures`, group: 'Signatures' })
  }

  boot(panel: PanelContext, app: FastifyInstance): void {
    app.get('/my-signatures', { config: { name: MY_SIGNATURES_ROUTE } }, async (request, reply) => {
      const templates = [...app.signature.registry.all().values()].map((t) => ({ key: t.key(), label: t.label() }))
      const config = {
        api: '/api/signatures',
        signables: '/api/signables/',
        templates,
        // Filled in by the script: template key and signature uuid replace the placeholders.
        signerUrl: panel.url(SIGNER_ROUTE.page, PLACEHOLDER),
        placeholder: PLACEHOLDER,
      }
      return reply.page(VIEW, {
        config,
        scripts: [`/${panel.path}/my-signatures/signature_pad.js`, `${signatureAssetsUrl(panel.path)}my-signatures.js`],
      }, { title: 'My signatures' })
    })

    app.get('/my-signatures/signature_pad.js', async (_request, reply) =>
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'private, max-age=3600').send(createReadStream(SIGNATURE_PAD)))
  }
}
