import type { OutboxSender, SendResult } from '../outbox/outbox-dispatcher.ts'
import type { SignatureOutboxTable } from '../outbox/outbox-tables.ts'
import type { MailPayload } from './mail-payload.ts'
import type { MailTransport } from './mail-transport.ts'
import { renderMail, type MailLinks } from './render-mail.ts'

export interface MailSenderOptions {
  users: { findById(id: string): Promise<{ id: string; name: string; email: string } | null> }
  transport: MailTransport
  links: MailLinks
  /** The From address; by default no-reply at PUBLIC_URL's host. */
  from?: string
  /** The certificate of completion, attached to the "completed" mail. */
  certificate?: (sessionId: string) => Promise<{ bytes: Buffer; fileName: string } | null>
  /** The signed PDF the "completed" mail carries (null when too large to attach: the mail links to it). */
  document?: (sessionId: string) => Promise<{ bytes: Buffer; fileName: string } | null>
  /** Signers by e-mail address (`request:<id>` targets): their name, address and link token; the sealed code of a code mail. */
  external?: {
    find(requestId: string): Promise<{ name: string; email: string; signUrl: string; documentUrl: string } | null>
    openCode(sealed: string, requestId: string): string
  }
}

const EXTERNAL = 'request:'

/** Renders a mail row for its recipient and hands it to the transport. */
export class MailSender implements OutboxSender {
  constructor(readonly options: MailSenderOptions) {}

  async send(row: SignatureOutboxTable): Promise<SendResult> {
    const { users, transport, links } = this.options
    const payload = JSON.parse(row.payload) as MailPayload
    const external = row.target.startsWith(EXTERNAL) ? await this.options.external?.find(row.target.slice(EXTERNAL.length)) : null
    const to = external ? { id: row.target, ...external } : await users.findById(row.target)
    // A user removed since the change has no address any more: nothing a retry could fix.
    if (!to) return { ok: false, permanent: true, error: `No user ${row.target}`, summary: null }
    const actor = payload.actor ? await users.findById(payload.actor) : payload.actorName ? { name: payload.actorName } : null
    const code = payload.kind === 'sign-code' && payload.code && payload.requestId ? this.options.external?.openCode(payload.code, payload.requestId) : undefined
    const mail = await renderMail(payload, to, actor, links, code)
    const host = new URL(links.base()).hostname || 'localhost'
    const certificate = payload.kind === 'completed' ? await this.options.certificate?.(payload.sessionId) : null
    const document = payload.kind === 'completed' ? await this.options.document?.(payload.sessionId) : null
    const attachments = [
      ...(document ? [{ filename: document.fileName, content: document.bytes, contentType: 'application/pdf' }] : []),
      ...(certificate ? [{ filename: certificate.fileName, content: certificate.bytes, contentType: 'application/pdf' }] : []),
    ]
    const delivered = await transport.deliver(row.id, {
      from: this.options.from ?? { name: 'Signatures', address: `no-reply@${host}` },
      to: { name: to.name, address: to.email },
      subject: mail.subject,
      text: mail.text,
      // The outbox message id: a message sent twice (a crash after the SMTP answer) shows it.
      messageId: `<${row.message_id}@${host}>`,
      headers: { 'X-Signature-Session': payload.sessionId },
      ...(attachments.length ? { attachments } : {}),
    })
    return { ok: true, summary: `${to.email}: ${mail.subject} (${delivered})` }
  }
}
