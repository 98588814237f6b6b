import type { FastifyInstance, FastifyPluginAsync } from 'fastify'
import fp from 'fastify-plugin'
import type { Database } from '../../core/db/database.ts'
import type { RecordSource, SignableSource } from './contracts/signable-source.ts'
import type { TemplateRegistryOptions } from './create-template-registry.ts'
import { signatureLibraryApi } from './library/signature-library-api.ts'
import type { TemplateSource } from './registry/pdf-template-registry.ts'
import { createSessionManager } from './sessions/create-session-manager.ts'
import { signingSessionsApi } from './sessions/sessions-api.ts'
import { signLinksApi } from './sessions/sign-links-api.ts'
import { documentsApi } from './documents/documents-api.ts'
import { Documents } from './documents/documents.ts'
import { DocumentTemplates } from './documents/document-templates.ts'
import { DocumentRepository } from './documents/document-repository.ts'
import type { SigningSessionManager } from './sessions/signing-session-manager.ts'
import { signablesApi } from './signables/signables-api.ts'
import { renewDueSignedDocuments, type DocumentRenewal } from './signing/signed-document-renewal.ts'
import { signableRecords } from './signables/signable-records.ts'
import { parseSignatureConfig, type SignatureConfigInput } from './signature-config.ts'
import { createSignatureServices, type SignatureServices } from './signature-services.ts'
import { signingApi } from './signing/signing-api.ts'
import { createDelivery, listenOrigin, type Delivery } from './create-delivery.ts'
import { sessionOutbox } from './sessions/session-notifications.ts'
import { webhooksApi } from './webhooks/webhooks-api.ts'
import { pkiRoutes } from './pki/pki-routes.ts'
import type { RequestRateLimitOptions } from '../../core/http/request-rate-limit.ts'
import { createVerifier, verifyApi, type Verifier } from './verify/verify-api.ts'
import { signatureMetrics, type SignatureMetrics } from './signature-metrics.ts'
import { mountPublicVerifyPage } from './verify/verify-pages.ts'
import type { StorageDriver } from '../../core/storage/disk.ts'
import { mountSignLinkPage } from './document-pages/sign-link-page.ts'
import { createStorageSweep, type StorageSweep } from './storage/storage-sweep.ts'
import { scheduleSealRetry } from './sessions/session-seal-schedule.ts'

export interface SignatureAppOptions extends Pick<TemplateRegistryOptions, 'renderers' | 'defaultRenderer'> {
  /** config/signature.ts as written: parsed here, a bad value stops the boot naming the field. */
  config: SignatureConfigInput
  /**
   * The host's database, already migrated with `signatureMigrations` among the host's own
   * migrations. The host opened it and closes it; the plugin only reads and writes its tables.
   */
  database: Database<any>
  /** Root of the storage folder (STORAGE_PATH): the signature disk and key files live under it. */
  storagePath: string
  /**
   * STORAGE_DRIVER: 'database' keeps signed documents, page images and key files in the
   * database (PostgreSQL only), so instances need no shared storage folder; default 'disk'.
   */
  storageDriver?: StorageDriver | undefined
  /** Root of the host's Eta views ('pdf.x' -> <viewsRoot>/pdf/x.eta). */
  viewsRoot: string
  /**
   * The one place the plugin finds the host's records: the APIs, the signer pages and sessions.
   * Plain records (`{ id, ...fields }`) or Signables; the plugin makes the plain ones Signable.
   */
  records: RecordSource
  /** SIGNATURE_ENCRYPTION_KEY (32 bytes, hex or base64); otherwise a key file under storage/keys. */
  encryptionKey?: string
  /** SMTP_URL: e-mail goes there; without it each message is written as .eml under <storagePath>/mail. */
  smtpUrl?: string | undefined
  /**
   * PUBLIC_URL: the origin of links in e-mail and of the CRL and OCSP addresses in issued
   * certificates; without it the address the app listens on.
   */
  publicUrl?: string | undefined
  /** MAIL_FROM: `address` or `Name <address>`; without it no-reply at PUBLIC_URL's host. */
  mailFrom?: string | undefined
  /** Requests per client address to /pki (CRL, OCSP, TSA, CA certificate); default 300 a minute. */
  pkiRateLimit?: RequestRateLimitOptions
  /** WEBHOOKS_ALLOW_PRIVATE: endpoints may resolve to loopback or private addresses. */
  allowPrivateWebhooks?: boolean | undefined
}

/** `app.signature`: the services plus the one record source and the signing sessions. */
export interface SignatureApp extends SignatureServices, Delivery {
  readonly records: SignableSource
  readonly sessions: SigningSessionManager
  /** One-pass signed copies (single signatures, /api/sign): archive renewal of those that are due. */
  readonly documents: { renewDueTimestamps(options: { beforeDays: number }): Promise<DocumentRenewal[]> }
  /** What crashes leave on the signature disk, swept at boot and periodically (storage/). */
  readonly storageSweep: StorageSweep
  /** Pages of one panel that other panels link to; set by the panel that mounts them (the first one). */
  readonly links: SignatureLinks
}

export interface SignatureLinks {
  /** The "Send for signature" form, for a template and optionally a record; null until a panel has the 'sessions' pages. */
  sendForSignature: ((query: { template: string; signable?: string }) => string) | null
  /** The verification report of a signed document or a session's document; null until a panel has the 'verify' page. */
  verify: ((target: { signature: string } | { session: string }) => string) | null
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The app-wide signature part; every panel's SignaturePlugin uses it. */
    signature: SignatureApp
  }
}

/** A Fastify plugin you can keep configuring, as a Panel is. */
export interface SignaturesBuilder extends FastifyPluginAsync {
  /**
   * Templates of the host, app-wide, registered when this plugin registers (after the config's,
   * so a key here replaces a config entry): instances, classes or `{ key, view, ... }` entries.
   */
  templates(templates: readonly TemplateSource[]): SignaturesBuilder
}

/**
 * The app-level part of the signature plugin, registered once before the panels:
 *
 *   await app.register(Signatures.make({ config, database, storagePath, viewsRoot, records })
 *     .templates([ContractTemplate]))
 *
 * Decorates `app.signature` (hence fastify-plugin), mounts /api/signatures, /api/sign,
 * /api/signables, /api/signing-sessions, /api/webhooks, /api/verify and the public /verify page, starts the PDF workers and the outbox's
 * dispatcher (e-mail, webhooks) and closes them with the app.
 * Users and the access policy are the core app's (`app.users`, `app.policy`).
 */
export const Signatures = {
  make(options: SignatureAppOptions): SignaturesBuilder {
    const templates: TemplateSource[] = []
    const plugin = fp(async (app: FastifyInstance) => mountSignatureApp(app, options, templates), { name: 'signature-app' })
    const builder: SignaturesBuilder = Object.assign(plugin, {
      templates: (list: readonly TemplateSource[]) => { templates.push(...list); return builder },
    })
    return builder
  },
}

async function mountSignatureApp(app: FastifyInstance, options: SignatureAppOptions, templates: readonly TemplateSource[]): Promise<void> {
  for (const name of ['users', 'policy'] as const) {
    if (!app.hasDecorator(name)) throw new Error(`The signature plugin needs app.${name}: register it on the app made by createCoreApp`)
  }
  const config = parseSignatureConfig(options.config)
  // The host's metrics hook (core/observability): the plugin adds its own metrics there.
  const metrics = signatureMetrics(app.hasDecorator('metrics') ? app.metrics : undefined)
  const services = await createSignatureServices(config, {
    metrics,
    storagePath: options.storagePath,
    ...(options.storageDriver ? { storageDriver: options.storageDriver } : {}),
    viewsRoot: options.viewsRoot,
    database: options.database,
    ...(options.renderers ? { renderers: options.renderers } : {}),
    ...(options.defaultRenderer ? { defaultRenderer: options.defaultRenderer } : {}),
    ...(options.encryptionKey ? { encryptionKey: options.encryptionKey } : {}),
    publicOrigin: () => options.publicUrl ?? listenOrigin(app),
  })
  app.addHook('onClose', () => services.close())
  for (const source of templates) services.registry.add(source, 'fluent')

  // Documents saved as templates (issue 38, item 6): registered after config and code, whose keys win.
  const documentRepository = new DocumentRepository(services.database.db)
  const uploaded = new Documents({ repository: documentRepository, disk: services.disk, pdf: services.pdf, policy: app.policy })
  const documentTemplates = new DocumentTemplates({ repository: documentRepository, documents: uploaded, registry: services.registry, disk: services.disk })
  await documentTemplates.registerSaved()
  // Saves, renames and deletes on any instance reach this registry's lists (they await fresh()).
  services.registry.keepFreshWith(() => documentTemplates.refresh())

  const records = signableRecords(services.registry, options.records)
  // The manager is also the signer's SessionFinalizer (finalize with request=).
  const sessions = createSessionManager(services, {
    storagePath: options.storagePath, source: records, users: app.users, policy: app.policy, events: sessionOutbox(services.outboxWriter), metrics,
  })
  const delivery = createDelivery(app, services, {
    storagePath: options.storagePath, smtpUrl: options.smtpUrl, publicUrl: options.publicUrl, mailFrom: options.mailFrom, allowPrivateWebhooks: options.allowPrivateWebhooks,
    signerUrl: (template, requestId, userId) => sessions.signerUrl(template, requestId, userId),
    certificate: (sessionId) => sessions.certificateForMail(sessionId),
    document: (sessionId) => sessions.mail.signedDocument(sessionId),
    external: { find: (requestId) => sessions.mail.externalRecipient(requestId), openCode: (sealed, requestId) => sessions.mail.openCode(sealed, requestId) },
  })
  metrics.watchOutbox(delivery.outbox.repository)
  const documents = { renewDueTimestamps: (o: { beforeDays: number }) => renewDueSignedDocuments({ signatures: services.signatures, disk: services.disk, ltv: services.ltv }, o) }
  const storageSweep = createStorageSweep(app, services)
  scheduleSealRetry(app, sessions, config.sessions.seal_retry_every_ms)
  const signature: SignatureApp = { ...services, ...delivery, records, sessions, documents, storageSweep, links: { sendForSignature: null, verify: null } }
  app.decorate('signature', signature)

  await app.register(signablesApi, { registry: services.registry, source: records, policy: app.policy, db: services.signatures.db, users: app.users })
  await app.register(signatureLibraryApi, { library: services.library })
  await app.register(signingApi, { services: signature, policy: app.policy })
  await app.register(signingSessionsApi, { sessions, pageImages: services.pageImages })
  await app.register(documentsApi, { documents: uploaded, templates: documentTemplates, pageImages: services.pageImages })
  await app.register(signLinksApi, { sessions, pageImages: services.pageImages })
  await app.register(webhooksApi, { webhooks: delivery.webhooks, policy: app.policy })
  await app.register(pkiRoutes, { pki: services.pki, publicTsa: services.config.timestamps.public_tsa, ...(options.pkiRateLimit ? { rateLimit: options.pkiRateLimit } : {}) })
  // The verifier: public, stores nothing (verify/verify-api.ts).
  await app.register(verifyApi, { services: signature, verifier: countingVerdicts(await createVerifier(services), metrics), policy: app.policy, sessions })
  mountPublicVerifyPage(app, { publicPage: services.config.verify.public })
  // /sign/<token>: where an invitation to someone without an account leads.
  await mountSignLinkPage(app)
}

/** Each verification's verdict counted; one that fails (not a PDF, too complex) counts as 'error'. */
function countingVerdicts(verifier: Verifier, metrics: SignatureMetrics): Verifier {
  return {
    async verify(pdf, source) {
      try {
        const report = await verifier.verify(pdf, source)
        metrics.verified(report.verdict)
        return report
      } catch (error) {
        metrics.verified('error')
        throw error
      }
    },
  }
}
