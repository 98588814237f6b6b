import type { Kysely, Transaction } from 'kysely'
import type { SignatureTables } from '../database/schema.ts'
import type { MailKind, MailPayload } from '../mail/mail-payload.ts'
import type { OutboxWriter } from '../outbox/outbox-writer.ts'
import type { WebhookEventType } from '../outbox/webhook-events.ts'
import type { SigningSessionEventTable, SigningSessionRequestTable, SigningSessionTable } from './session-tables.ts'
import { isTurnOf } from './signing-order.ts'

type Db = Kysely<SignatureTables> | Transaction<SignatureTables>

/** Receives each audit event inside the transaction that writes it (session-repository.ts). */
export interface SessionEventSink {
  record(tx: Db, event: SigningSessionEventTable): Promise<void>
  committed(): void
}

const WEBHOOK_OF: Record<string, WebhookEventType | undefined> = {
  created: 'session.created',
  opened: 'session.request.opened',
  signed: 'session.request.signed',
  declined: 'session.request.declined',
  completed: 'session.completed',
  cancelled: 'session.cancelled',
}

/** A mail row's target: the user's id, or `request:<id>` for a signer by e-mail (mail-sender resolves it). */
export const recipientOf = (r: Pick<SigningSessionRequestTable, 'id' | 'signer_user_id'>): string => r.signer_user_id ?? `${EXTERNAL_TARGET}${r.id}`
export const EXTERNAL_TARGET = 'request:'

/**
 * Who is told what when a session changes, worked out from the rows as the transaction left them:
 * - created: an invitation to each signer whose turn it is (all of them in a parallel session);
 * - reminded: a reminder to the same people, as things stand now;
 * - signed: in a sequential session, an invitation to each signer whose turn it has just become;
 * - declined, cancelled, completed: everyone in the session but the person who did it (the
 *   creator too when a signer declines), the completed mail linking to the signed PDF.
 * Every change is also the matching webhook event.
 */
export function sessionMails(event: SigningSessionEventTable, session: SigningSessionTable, requests: readonly SigningSessionRequestTable[]): Array<{ to: string; kind: MailKind; requestId: string | null }> {
  const turn = (list: readonly SigningSessionRequestTable[], r: SigningSessionRequestTable) => r.status === 'pending' && isTurnOf(session.mode, list, r)
  switch (event.event) {
    case 'created':
      return requests.filter((r) => turn(requests, r)).map((r) => ({ to: recipientOf(r), kind: 'invitation', requestId: r.id }))
    case 'reminded':
      return requests.filter((r) => turn(requests, r)).map((r) => ({ to: recipientOf(r), kind: 'reminder', requestId: r.id }))
    case 'signed': {
      if (session.status !== 'active') return []
      // The rows before this signature: the signed request was still open.
      const before = requests.map((r) => (r.id === event.request_id ? { ...r, status: 'signing' as const } : r))
      return requests.filter((r, i) => turn(requests, r) && !turn(before, before[i]!)).map((r) => ({ to: recipientOf(r), kind: 'invitation', requestId: r.id }))
    }
    case 'declined':
    case 'cancelled':
    case 'completed': {
      // A declined request in a cancelled session is a signer whose account was deleted: nobody to tell.
      const told = requests.filter((r) => event.event !== 'cancelled' || r.status !== 'declined')
      const people = new Set([session.created_by, ...told.map(recipientOf)])
      // The one who declined or cancelled knows; on completion everyone is told, the last signer too.
      if (event.event !== 'completed' && event.actor_user_id) people.delete(event.actor_user_id)
      // A signer by e-mail who declined (no account, so no actor): their request names them.
      const decliner = event.event === 'declined' && !event.actor_user_id ? requests.find((r) => r.id === event.request_id) : undefined
      if (decliner) people.delete(recipientOf(decliner))
      return [...people].map((to) => ({ to, kind: event.event as MailKind, requestId: event.request_id }))
    }
    default:
      return []
  }
}

/**
 * Who a request's signer is, for a webhook's receiver: `signer` is the user id of an account
 * signer (null for a signer by e-mail, who has none); a signer by e-mail is named by
 * `signer_name` and `signer_email`; `identified_by` says how the signer is (or will be) identified.
 */
function webhookSigner(request: SigningSessionRequestTable) {
  const external = !request.signer_user_id
  return {
    signer: request.signer_user_id,
    signer_name: external ? (request.signer_name ?? null) : null,
    signer_email: external ? (request.signer_email ?? null) : null,
    identified_by: request.identified_by ?? (external ? 'email-code' : 'account'),
  }
}

export function sessionWebhookData(event: SigningSessionEventTable, session: SigningSessionTable, requests: readonly SigningSessionRequestTable[]) {
  const request = requests.find((r) => r.id === event.request_id)
  return {
    session: {
      id: session.id, template: session.template_key, signable: { id: session.signable_id, title: session.signable_title },
      mode: session.mode, status: session.status, created_by: session.created_by, document_sha256: session.current_sha256,
    },
    ...(request ? { request: { id: request.id, slot: request.slot_key, ...webhookSigner(request), status: request.status, decline_reason: request.decline_reason } } : {}),
    actor: event.actor_user_id,
    at: event.created_at,
  }
}

/** The sink the app wires into SessionRepository: mails and webhook rows through the outbox writer. */
export function sessionOutbox(writer: OutboxWriter): SessionEventSink {
  return {
    async record(tx, event) {
      const session = await tx.selectFrom('signing_sessions').selectAll().where('id', '=', event.session_id).executeTakeFirstOrThrow()
      const requests = await tx.selectFrom('signing_session_requests').selectAll().where('session_id', '=', event.session_id)
        .orderBy('sign_order').orderBy('slot_key').execute()
      const mails = sessionMails(event, session, requests).map(({ to, kind, requestId }) => {
        const payload: MailPayload = {
          kind, sessionId: session.id, requestId, template: session.template_key, title: session.signable_title,
          actor: event.actor_user_id, reason: kind === 'declined' || kind === 'cancelled' ? event.detail : null,
          ...(kind === 'declined' && !event.actor_user_id ? { actorName: requests.find((r) => r.id === event.request_id)?.signer_name ?? null } : {}),
          ...(kind === 'invitation' || kind === 'reminder' ? { message: session.message ?? null, dueAt: session.due_at ?? null } : {}),
        }
        return { channel: 'mail' as const, topic: kind, target: to, payload }
      })
      await writer.write(tx, mails, event.created_at)
      const type = WEBHOOK_OF[event.event]
      if (type) await writer.publish(tx, type, sessionWebhookData(event, session, requests), event.created_at)
    },
    committed: () => writer.committed(),
  }
}
