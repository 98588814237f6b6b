import type { FastifyInstance } from 'fastify'
import type { PanelContext, PanelPlugin } from '../../core/panel/panel-plugin.ts'
import { mountTemplateRoutes, ROUTE, TEMPLATES_PERMISSION } from './admin/template-routes.ts'
import type { PdfTemplateRegistry, TemplateSource } from './registry/pdf-template-registry.ts'
import type { SignableSource } from './contracts/signable-source.ts'
import { mountSignerRoutes } from './signer/signer-routes.ts'
import { mountDesignerRoutes } from './designer/designer-routes.ts'
import { mountSignatureAssets } from './public-assets.ts'

/**
 * The signature plugin of a panel:
 *
 *   Panel.make()...plugin(SignaturePlugin.make().templates([ContractTemplate]))
 *
 * Templates given here register, when the panel boots, into the one app-wide registry (the
 * `signature` decoration made by signatureServicesPlugin): a key means one template everywhere
 * because it is stored in rows and names files. See PdfTemplateRegistry for why.
 */
export class SignaturePlugin implements PanelPlugin {
  readonly id = 'signature'
  readonly #templates: TemplateSource[] = []
  #registry: PdfTemplateRegistry | undefined
  #signables: SignableSource | undefined

  static make(): SignaturePlugin {
    return new SignaturePlugin()
  }

  /** Templates this panel brings: instances, classes or `{ key, view, ... }` entries. */
  templates(templates: TemplateSource[]): this {
    this.#templates.push(...templates)
    return this
  }

  /** Use this registry instead of the app's `signature` decoration (tests, apps composed by hand). */
  registry(registry: PdfTemplateRegistry): this {
    this.#registry = registry
    return this
  }

  /** Where the signer page finds records (`?signable=`): the host's SignableSource. */
  signables(source: SignableSource): this {
    this.#signables = source
    return this
  }

  register(panel: PanelContext): void {
    panel.navigationItem({ label: 'Signature templates', url: `/${panel.path}/signature-templates`, permission: TEMPLATES_PERMISSION, group: 'Signatures' })
  }

  async boot(panel: PanelContext, app: FastifyInstance): Promise<void> {
    const registry = this.#registry ?? (app as Partial<FastifyInstance>).signature?.registry
    if (!registry) throw new Error(`SignaturePlugin on panel "${panel.id}": no registry; register signatureServicesPlugin first, or pass .registry(...)`)
    for (const source of this.#templates) registry.add(source, `panel:${panel.id}`)
    mountTemplateRoutes(panel, app, () => registry)
    mountSignerRoutes(panel, app, () => this.#signables)
    mountDesignerRoutes(panel, app, () => registry)
    await mountSignatureAssets(app)
  }
}

export { ROUTE as SIGNATURE_ROUTES }
