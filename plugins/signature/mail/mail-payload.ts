/** The messages of signing sessions (issue 20, item 5). */
export type MailKind = 'invitation' | 'reminder' | 'declined' | 'completed' | 'cancelled' | 'sign-code'

/** What a mail row of the outbox holds: facts at commit time; the text is written when it is sent. */
export interface MailPayload {
  kind: MailKind
  sessionId: string
  requestId: string | null
  template: string
  title: string
  actor: string | null
  /** The name of an actor without an account (a signer by e-mail who declined). */
  actorName?: string | null
  reason: string | null
  /** The sender's words, in invitations and reminders. */
  message?: string | null
  /** When the session is due, in invitations and reminders. */
  dueAt?: string | null
  /** A one-time code for an external signer, sealed with the encryption key (opened only to send it). */
  code?: string
}
