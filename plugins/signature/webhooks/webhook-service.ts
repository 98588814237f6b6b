import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { parseInput } from '../../../core/http/validate.ts'
import { UUID } from '../../../core/http/uuid.ts'
import type { SecretBox } from '../library/secret-box.ts'
import type { OutboxRepository } from '../outbox/outbox-repository.ts'
import type { SignatureOutboxAttemptTable, SignatureOutboxTable, WebhookEndpointTable } from '../outbox/outbox-tables.ts'
import type { OutboxWriter } from '../outbox/outbox-writer.ts'
import { ORDERED_ID } from '../ordered-id.ts'
import type { EndpointRepository } from './endpoint-repository.ts'
import { ERR_WEBHOOK_DELIVERY_NOT_FOUND, ERR_WEBHOOK_NOT_FOUND } from './webhook-errors.ts'
import { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT, type WebhookPayload } from '../outbox/webhook-events.ts'
import { newWebhookSecret } from './webhook-signature.ts'
import { assertPublicTarget, parseWebhookUrl } from './webhook-target.ts'

const createSchema = z.strictObject({
  url: z.string().trim().min(1, 'required').max(2000),
  events: z.array(z.enum(WEBHOOK_EVENTS)).min(1, 'choose at least one event').max(WEBHOOK_EVENTS.length * 2).transform((list) => [...new Set(list)]),
  description: z.string().trim().max(500).default(''),
})

export interface EndpointJson {
  id: string
  url: string
  description: string
  events: string[]
  status: string
  createdBy: string
  createdAt: string
}

export interface DeliveryJson {
  id: string
  messageId: string
  type: string
  status: string
  attempts: number
  lastStatusCode: number | null
  lastError: string | null
  nextAttemptAt: string | null
  sentAt: string | null
  createdAt: string
  log: Array<{ attempt: number; at: string; statusCode: number | null; ok: boolean; durationMs: number; error: string | null }>
}

export const endpointJson = (e: WebhookEndpointTable): EndpointJson => ({
  id: e.id, url: e.url, description: e.description, events: JSON.parse(e.events) as string[], status: e.status, createdBy: e.created_by, createdAt: e.created_at,
})

export function deliveryJson(row: SignatureOutboxTable, attempts: readonly SignatureOutboxAttemptTable[]): DeliveryJson {
  return {
    id: row.id, messageId: row.message_id, type: row.topic, status: row.status, attempts: Number(row.attempts),
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code), lastError: row.last_error,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null, sentAt: row.sent_at, createdAt: row.created_at,
    log: attempts.filter((a) => a.outbox_id === row.id).map((a) => ({
      attempt: Number(a.attempt), at: a.started_at, statusCode: a.status_code === null ? null : Number(a.status_code), ok: Number(a.ok) === 1, durationMs: Number(a.duration_ms), error: a.error,
    })),
  }
}

export interface WebhookServiceOptions {
  endpoints: EndpointRepository
  outbox: OutboxRepository
  writer: OutboxWriter
  secrets: SecretBox
  allowPrivate: boolean
  now?: () => Date
}

/** Registering endpoints and what the endpoint page does; the permission is checked by the routes. */
export class WebhookService {
  readonly #o: WebhookServiceOptions
  constructor(options: WebhookServiceOptions) {
    this.#o = options
  }

  #now() {
    return (this.#o.now?.() ?? new Date()).toISOString()
  }

  /** The secret is answered here once; afterwards only its sealed form exists (to sign deliveries). */
  async create(createdBy: string, body: unknown): Promise<{ endpoint: EndpointJson; secret: string }> {
    const input = parseInput(createSchema, body, 'body')
    const url = parseWebhookUrl(input.url)
    await assertPublicTarget(url, this.#o.allowPrivate)
    const id = randomUUID()
    const secret = newWebhookSecret()
    const at = this.#now()
    const row: WebhookEndpointTable = {
      id, url: url.toString(), description: input.description, events: JSON.stringify(input.events), secret_sealed: this.#o.secrets.seal(secret, id),
      status: 'active', created_by: createdBy, created_at: at, updated_at: at,
    }
    await this.#o.endpoints.insert(row)
    return { endpoint: endpointJson(row), secret }
  }

  async list(): Promise<EndpointJson[]> {
    return (await this.#o.endpoints.listActive()).map(endpointJson)
  }

  async #endpoint(id: string): Promise<WebhookEndpointTable> {
    const endpoint = UUID.test(id) ? await this.#o.endpoints.find(id) : undefined
    if (!endpoint || endpoint.status !== 'active') throw ERR_WEBHOOK_NOT_FOUND()
    return endpoint
  }

  /** The endpoint with its delivery log, newest first. */
  async get(id: string): Promise<EndpointJson & { deliveries: DeliveryJson[] }> {
    const endpoint = await this.#endpoint(id)
    const rows = await this.#o.outbox.list({ channel: 'webhook', target: endpoint.id }, 100)
    const attempts = await this.#o.outbox.attemptsOf(rows.map((r) => r.id))
    return { ...endpointJson(endpoint), deliveries: rows.map((r) => deliveryJson(r, attempts)) }
  }

  async remove(id: string): Promise<void> {
    const endpoint = await this.#endpoint(id)
    if (!(await this.#o.endpoints.markDeleted(endpoint.id, this.#now()))) throw ERR_WEBHOOK_NOT_FOUND()
  }

  /** A `webhook.test` event to this endpoint alone, whatever it subscribes to. */
  async sendTest(id: string): Promise<DeliveryJson> {
    const endpoint = await this.#endpoint(id)
    const at = this.#now()
    const payload: WebhookPayload = { type: WEBHOOK_TEST_EVENT, created_at: at, data: { endpoint: endpoint.id, message: 'A test event sent from the admin panel' } }
    return this.#enqueue({ channel: 'webhook', topic: WEBHOOK_TEST_EVENT, target: endpoint.id, payload }, at)
  }

  /** The same message again (same webhook-id, same body), as a new delivery with its own log. */
  async redeliver(id: string, deliveryId: string): Promise<DeliveryJson> {
    const endpoint = await this.#endpoint(id)
    const original = ORDERED_ID.test(deliveryId) ? await this.#o.outbox.find(deliveryId) : undefined
    if (!original || original.channel !== 'webhook' || original.target !== endpoint.id) throw ERR_WEBHOOK_DELIVERY_NOT_FOUND()
    return this.#enqueue({ channel: 'webhook', topic: original.topic, target: endpoint.id, payload: JSON.parse(original.payload), messageId: original.message_id }, this.#now())
  }

  async #enqueue(message: Parameters<OutboxRepository['insert']>[1][number], at: string): Promise<DeliveryJson> {
    const [row] = await this.#o.outbox.db.transaction().execute((tx) => this.#o.outbox.insert(tx, [message], at))
    this.#o.writer.committed()
    return deliveryJson(row!, [])
  }
}
