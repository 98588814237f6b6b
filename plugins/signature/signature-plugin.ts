import type { FastifyInstance } from 'fastify'
import type { NavigationItem, PanelContext, PanelPlugin } from '../../core/panel/panel-plugin.ts'
import type { TopbarItem } from '../../core/views/topbar.ts'
import type { DashboardWidget } from '../../core/views/dashboard-widgets.ts'
import { mountTemplateRoutes, TEMPLATES_PERMISSION } from './admin/template-routes.ts'
import { personRelationLists } from './admin/person-relations.ts'
import { mountDesignerRoutes } from './designer/designer-routes.ts'
import { mountSignatureAssets } from './public-assets.ts'
import type { TemplateSource } from './registry/pdf-template-registry.ts'
import { inboxNavigation, inboxTopbarItem, mountInboxPage } from './sessions/inbox-plugin.ts'
import { mountSessionPages, sessionsNavigation } from './sessions/session-pages.ts'
import { sessionsInProgressWidget, waitingForSignatureWidget } from './sessions/session-widgets.ts'
import { mountMySignaturesPage, mySignaturesNavigation, mySignaturesTopbarItem } from './signer/my-signatures-plugin.ts'
import { mountSignerRoutes } from './signer/signer-routes.ts'
import { mountOutboxPage, outboxNavigation } from './mail/outbox-page.ts'
import { mountWebhookPages, webhooksNavigation } from './webhooks/webhook-pages.ts'
import { mountPanelVerifyPage, verifyNavigation } from './verify/verify-pages.ts'
import { mountNewDocumentPage, newDocumentNavigation } from './document-pages/new-document-page.ts'
import { mountDocumentSignerPage } from './document-pages/document-signer-page.ts'

/** The pages a panel can get from the plugin. */
export type SignaturePage = 'templates' | 'designer' | 'signer' | 'my-signatures' | 'inbox' | 'sessions' | 'documents' | 'outbox' | 'webhooks' | 'verify'

interface PageDefinition {
  navigation?(panel: PanelContext): NavigationItem
  /** A link in every page's top bar (added when the panel boots: counts need app.signature). */
  topbar?(panel: PanelContext, app: FastifyInstance): TopbarItem
  mount(panel: PanelContext, app: FastifyInstance): void
  /** A widget of /dashboard, next to the page it leads to (added when the panel boots: it needs app.signature). */
  widget?(panel: PanelContext, app: FastifyInstance): DashboardWidget
}

// In this order: navigation and routes come out the same whatever order .pages() lists.
const PAGES: Record<SignaturePage, PageDefinition> = {
  templates: {
    navigation: (panel) => ({ label: 'Signature templates', url: `/${panel.path}/signature-templates`, permission: TEMPLATES_PERMISSION, group: 'Signatures' }),
    mount: (panel, app) => mountTemplateRoutes(panel, app, () => app.signature.registry),
  },
  signer: { mount: (panel, app) => mountSignerRoutes(panel, app, () => app.signature.records) },
  designer: { mount: (panel, app) => mountDesignerRoutes(panel, app, () => app.signature.registry) },
  'my-signatures': { navigation: mySignaturesNavigation, topbar: mySignaturesTopbarItem, mount: mountMySignaturesPage },
  // With the inbox, the page where a signer with an account signs an uploaded document (it links there).
  inbox: {
    navigation: inboxNavigation,
    topbar: inboxTopbarItem,
    mount: (panel, app) => {
      mountInboxPage(panel, app)
      mountDocumentSignerPage(panel, app)
    },
    widget: waitingForSignatureWidget,
  },
  sessions: { navigation: sessionsNavigation, mount: mountSessionPages, widget: sessionsInProgressWidget },
  // Those who may (documents:create): upload any PDF, place its fields, send it to anyone.
  documents: { navigation: newDocumentNavigation, mount: mountNewDocumentPage },
  // Administrators': what e-mail went out (or was written as .eml), and the webhook endpoints.
  outbox: { navigation: outboxNavigation, mount: mountOutboxPage },
  webhooks: { navigation: webhooksNavigation, mount: mountWebhookPages },
  // Anyone signed in: check a PDF, or read the report of a document the app signed.
  verify: { navigation: verifyNavigation, mount: mountPanelVerifyPage },
}

/** What a panel gets without .pages(): the administrator's set. */
const DEFAULT_PAGES: readonly SignaturePage[] = ['templates', 'designer', 'signer']

/**
 * The signature plugin of a panel; it chooses which of the plugin's pages the panel gets:
 *
 *   Panel.make()...plugin(SignaturePlugin.make().pages(['signer', 'my-signatures', 'inbox']))
 *
 * Templates, records and sessions are app-wide: they come from `app.signature`, made by the
 * app-level part (`Signatures.make(...)`), which must be registered before the panels.
 *
 * `.templates([...])` here is the specification's panel-level fluent way: the templates join the
 * one app-wide registry when this panel boots (origin `panel:<id>`), so each panel may bring its
 * own. They exist only once that panel is registered; templates every panel needs belong to
 * `Signatures.make(...).templates([...])`, which does not depend on any panel.
 */
export class SignaturePlugin implements PanelPlugin {
  readonly id = 'signature'
  #pages: ReadonlySet<SignaturePage> = new Set(DEFAULT_PAGES)
  readonly #templates: TemplateSource[] = []
  // The framework's People resource by default: its pages list each person's signatures and sessions.
  #people: string | null = 'users'
  #app: FastifyInstance | null = null

  static make(): SignaturePlugin {
    return new SignaturePlugin()
  }

  /** The pages this panel gets (replaces the default: templates, designer, signer). */
  pages(pages: readonly SignaturePage[]): this {
    for (const page of pages) {
      if (!Object.hasOwn(PAGES, page)) throw new Error(`SignaturePlugin: no page ${JSON.stringify(page)} (pages: ${Object.keys(PAGES).join(', ')})`)
    }
    this.#pages = new Set(pages)
    return this
  }

  /**
   * Where each person's signatures and signing sessions are listed: their page of the panel's
   * people resource ('users' by default, when the panel has it; null: nowhere). Shown to those
   * who may read everyone's.
   */
  personRelations(peopleSlug: string | null): this {
    this.#people = peopleSlug
    return this
  }

  /** Templates this panel brings into the app-wide registry: instances, classes or `{ key, view, ... }` entries. */
  templates(templates: readonly TemplateSource[]): this {
    this.#templates.push(...templates)
    return this
  }

  register(panel: PanelContext): void {
    for (const page of this.#chosen()) {
      const item = page.navigation?.(panel)
      if (item) panel.navigationItem(item)
    }
    if (this.#people && panel.hasResource(this.#people)) {
      personRelationLists(panel, this.#people, () => {
        if (!this.#app) throw new Error('SignaturePlugin: a person\'s relation lists are read once the panel has booted')
        return this.#app
      })
    }
  }

  async boot(panel: PanelContext, app: FastifyInstance): Promise<void> {
    if (!app.hasDecorator('signature')) {
      throw new Error(`SignaturePlugin on panel "${panel.id}": app.signature is missing; register Signatures.make(...) before the panels`)
    }
    this.#app = app
    for (const source of this.#templates) app.signature.registry.add(source, `panel:${panel.id}`)
    for (const page of this.#chosen()) {
      page.mount(panel, app)
      const item = page.topbar?.(panel, app)
      if (item) panel.topbarItem(item)
      const widget = page.widget?.(panel, app)
      if (widget) panel.widget(widget)
    }
    await mountSignatureAssets(app)
  }

  #chosen(): PageDefinition[] {
    return (Object.keys(PAGES) as SignaturePage[]).filter((name) => this.#pages.has(name)).map((name) => PAGES[name])
  }
}
