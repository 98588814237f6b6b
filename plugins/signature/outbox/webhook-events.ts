/** The events an endpoint may subscribe to (issue 20: the specification leaves them open). */
export const WEBHOOK_EVENTS = [
  'session.created',
  'session.request.opened',
  'session.request.signed',
  'session.request.declined',
  'session.completed',
  'session.cancelled',
  'signature.created',
  'signature.revoked',
] as const

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number]

/** Sent only by "send test event", to one endpoint, whatever it subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test'

/** What a webhook row's payload holds; the body is `{ id, type, created_at, data }` with the row's message id. */
export interface WebhookPayload {
  type: string
  created_at: string
  data: unknown
}
