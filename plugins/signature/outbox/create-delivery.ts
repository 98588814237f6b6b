import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { LocalDisk, type Disk } from '../../../core/storage/disk.ts'
import { MailSender, type MailSenderOptions } from '../mail/mail-sender.ts'
import { emlTransport, smtpTransport, type MailTransport } from '../mail/mail-transport.ts'
import type { MailLinks } from '../mail/render-mail.ts'
import type { SignatureServices } from '../signature-services.ts'
import { WebhookSender } from '../webhooks/webhook-sender.ts'
import { WebhookService } from '../webhooks/webhook-service.ts'
import { OutboxDispatcher } from './outbox-dispatcher.ts'
import { pruneOutbox } from './outbox-retention.ts'
import type { OutboxRepository } from './outbox-repository.ts'
import { DEFAULT_RETRY } from './retry-policy.ts'

const PRUNE_EVERY_MS = 3_600_000

export interface DeliveryOptions {
  storagePath: string
  /** SMTP_URL; without it every mail becomes an .eml file under <storage>/mail. */
  smtpUrl?: string | undefined
  /** PUBLIC_URL; without it the address the app listens on. */
  publicUrl?: string | undefined
  /** MAIL_FROM; without it no-reply at PUBLIC_URL's host. */
  mailFrom?: string | undefined
  /** WEBHOOKS_ALLOW_PRIVATE */
  allowPrivateWebhooks?: boolean | undefined
  /** Where the links of invitations point. */
  signerUrl(template: string, requestId: string, userId: string): Promise<string | null>
  /** The certificate of completion the "completed" mail carries. */
  certificate(sessionId: string): Promise<{ bytes: Buffer; fileName: string } | null>
  /** The signed PDF the "completed" mail carries, when small enough. */
  document?: MailSenderOptions['document']
  /** Signers by e-mail address: who they are and their links. */
  external?: MailSenderOptions['external']
}

/** `app.signature.outbox`, `.mail` and `.webhooks`. */
export interface Delivery {
  readonly outbox: { readonly repository: OutboxRepository; readonly dispatcher: OutboxDispatcher }
  readonly mail: { readonly disk: Disk; readonly transport: MailTransport }
  readonly webhooks: WebhookService
}

/** The listen address, once there is one: the default of PUBLIC_URL. */
export function listenOrigin(app: FastifyInstance): string {
  const address = app.server.address()
  if (address && typeof address === 'object') {
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
    return `http://${host === '0.0.0.0' || host === '[::]' ? 'localhost' : host}:${address.port}`
  }
  return 'http://localhost'
}

/**
 * E-mail and webhooks from the outbox: the senders, the dispatcher that runs them after each
 * commit and on a timer (unless outbox.dispatch is off on this instance), and its shutdown.
 */
export function createDelivery(app: FastifyInstance, services: SignatureServices, options: DeliveryOptions): Delivery {
  const { outboxWriter: writer, config, secrets } = services
  const repository = writer.outbox
  const disk = new LocalDisk('mail', path.join(options.storagePath, 'mail'))
  const transport = options.smtpUrl ? smtpTransport(options.smtpUrl) : emlTransport(disk)
  const links: MailLinks = { base: () => options.publicUrl ?? listenOrigin(app), signer: options.signerUrl, inbox: '/app/inbox', session: (id) => `/app/sessions/${encodeURIComponent(id)}` }
  const allowPrivate = options.allowPrivateWebhooks ?? false
  const webhookSender = new WebhookSender({ endpoints: writer.endpoints, secrets, allowPrivate })
  const dispatcher = new OutboxDispatcher({
    repository,
    senders: { mail: new MailSender({ users: app.users, transport, links, certificate: options.certificate, ...(options.document ? { document: options.document } : {}), ...(options.external ? { external: options.external } : {}), ...(options.mailFrom ? { from: options.mailFrom } : {}) }), webhook: webhookSender },
    retry: { ...DEFAULT_RETRY, baseMs: config.outbox.retry_base_ms },
    staleClaimMs: config.outbox.stale_claim_ms,
    onError: (error) => app.log.error({ err: error }, 'outbox dispatch failed; the rows wait for the next pass'),
    onSettled: (channel, outcome) => services.metrics.outboxSettled(channel, outcome),
  })
  let pruning: NodeJS.Timeout | null = null
  if (config.outbox.dispatch) {
    writer.afterCommit(() => dispatcher.kick())
    app.addHook('onReady', async () => dispatcher.start(config.outbox.poll_ms))
    // Old finished messages go once at boot and then hourly, on the instances that send.
    const prune = () => pruneOutbox({ repository, mailDisk: disk, retentionDays: config.outbox.retention_days, now: new Date() })
      .catch((error) => app.log.error({ err: error }, 'outbox pruning failed; it is tried again in an hour'))
    app.addHook('onReady', async () => {
      void prune()
      pruning = setInterval(prune, PRUNE_EVERY_MS).unref()
    })
  }
  app.addHook('onClose', async () => {
    if (pruning) clearInterval(pruning)
    await dispatcher.stop()
    transport.close()
    await webhookSender.close()
  })
  const webhooks = new WebhookService({ endpoints: writer.endpoints, outbox: repository, writer, secrets, allowPrivate })
  return { outbox: { repository, dispatcher }, mail: { disk, transport }, webhooks }
}
