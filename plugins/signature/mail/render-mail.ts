import type { MailPayload } from './mail-payload.ts'

export interface MailLinks {
  /** PUBLIC_URL (else the listen address), without a trailing slash. */
  base(): string
  /** The signer page opened on this request, or null when the signer has no signature yet. */
  signer(template: string, requestId: string, userId: string): Promise<string | null>
  /** Where a signer without a signature starts: the inbox. */
  inbox: string
  /** The session's page: where the people of a declined, completed or cancelled session see what happened. */
  session(sessionId: string): string
}

export interface RenderedMail { subject: string; text: string }

const absolute = (links: MailLinks, pathOrUrl: string) => (/^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${links.base()}${pathOrUrl}`)

/** The text of one session mail; plain text on purpose: nothing to escape, nothing to render wrong. */
/**
 * A recipient; a signer by e-mail address (no account) comes with their own links: the sign link
 * with its token, and the signed document by that token.
 */
export interface MailRecipient { id: string; name: string; signUrl?: string; documentUrl?: string }

export async function renderMail(payload: MailPayload, to: MailRecipient, actor: { name: string } | null, links: MailLinks, code?: string): Promise<RenderedMail> {
  const title = payload.title
  const greeting = `Hello ${to.name},`
  const sign = async () => absolute(links, to.signUrl ?? ((payload.requestId && await links.signer(payload.template, payload.requestId, to.id)) || links.inbox))
  const documentUrl = absolute(links, to.documentUrl ?? `/api/signing-sessions/${payload.sessionId}/document`)
  const sessionUrl = absolute(links, links.session(payload.sessionId))
  const note = `${payload.message ? `\nThe sender writes:\n${payload.message}\n` : ''}${payload.dueAt ? `\nPlease sign by ${payload.dueAt.slice(0, 10)}.\n` : ''}`
  switch (payload.kind) {
    case 'invitation':
      return { subject: `Please sign: ${title}`, text: `${greeting}\n\nIt is your turn to sign "${title}".\n${note}\nOpen it to sign: ${await sign()}\n` }
    case 'reminder':
      return { subject: `Reminder: please sign ${title}`, text: `${greeting}\n\n"${title}" is still waiting for your signature.\n${note}\nOpen it to sign: ${await sign()}\n` }
    case 'declined':
      return {
        subject: `Declined: ${title}`,
        text: `${greeting}\n\n${actor?.name ?? 'A signer'} declined to sign "${title}"; the signing session has ended.\n\nReason: ${payload.reason ?? '(none given)'}\n\nThe session: ${sessionUrl}\n`,
      }
    case 'completed':
      if (to.documentUrl) return { subject: `Signed by everyone: ${title}`, text: `${greeting}\n\nEveryone has signed "${title}".\n\nDownload the signed PDF (for 14 days): ${documentUrl}\nThe certificate of completion is attached.\n` }
      return { subject: `Signed by everyone: ${title}`, text: `${greeting}\n\nEveryone has signed "${title}".\n\nDownload the signed PDF: ${documentUrl}\nThe certificate of completion is attached, and at ${absolute(links, `/api/signing-sessions/${payload.sessionId}/certificate`)}\nThe session and its history: ${sessionUrl}\n` }
    case 'sign-code':
      return { subject: `Your code to sign: ${title}`, text: `${greeting}\n\nYour code to sign "${title}" is:\n\n    ${code ?? ''}\n\nIt works once, for 10 minutes. If you did not ask for it, ignore this message.\n` }
    case 'cancelled':
      return { subject: `Cancelled: ${title}`, text: `${greeting}\n\n${actor?.name ?? 'Its creator'} cancelled the signing of "${title}"; nothing more needs to be signed.\n${payload.reason ? `\nReason: ${payload.reason}\n` : ''}\nThe session: ${sessionUrl}\n` }
  }
}
