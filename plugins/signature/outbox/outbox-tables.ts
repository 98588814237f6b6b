/** 'mail' rows carry one message to one user; 'webhook' rows one event to one endpoint. */
export type OutboxChannel = 'mail' | 'webhook'
/** pending -> sent; pending -> failed once retrying is given up (after a day). */
export type OutboxStatus = 'pending' | 'sent' | 'failed'

export interface SignatureOutboxTable {
  id: string
  /**
   * What the receiver sees as the message's id (webhook-id, the mail's Message-ID). A redelivery
   * is a new row with the same message id, so a receiver that deduplicates by id stays correct.
   */
  message_id: string
  channel: OutboxChannel
  /** A webhook event type (session.completed) or a mail kind (invitation). */
  topic: string
  /** A user id (mail) or a webhook endpoint id. */
  target: string
  /** JSON: the facts at commit time; the message is rendered from them when it is sent. */
  payload: string
  status: OutboxStatus
  attempts: number
  next_attempt_at: string
  /** Set while one dispatcher sends the row; a claim older than the stale window is taken over. */
  claim_token: string | null
  claimed_at: string | null
  /** Who or where it went (an address, a URL) and the subject, once known: for the admin pages. */
  summary: string | null
  last_error: string | null
  last_status_code: number | null
  sent_at: string | null
  created_at: string
  updated_at: string
}

export interface SignatureOutboxAttemptTable {
  id: string
  outbox_id: string
  attempt: number
  started_at: string
  duration_ms: number
  /** The HTTP status of a webhook answer; null for mail and for a failure before any answer. */
  status_code: number | null
  ok: number
  error: string | null
}

export interface WebhookEndpointTable {
  id: string
  url: string
  description: string
  /** JSON array of event types. */
  events: string
  /** whsec_... sealed with the plugin's SecretBox (bound to the endpoint id). */
  secret_sealed: string
  status: 'active' | 'deleted'
  created_by: string
  created_at: string
  updated_at: string
}

export interface OutboxTables {
  signature_outbox: SignatureOutboxTable
  signature_outbox_attempts: SignatureOutboxAttemptTable
  webhook_endpoints: WebhookEndpointTable
}
