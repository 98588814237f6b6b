import type { Kysely, Transaction } from 'kysely'
import type { SignatureTables } from '../database/schema.ts'
import type { WebhookEventType, WebhookPayload } from './webhook-events.ts'
import type { NewOutboxMessage, OutboxRepository } from './outbox-repository.ts'

type Db = Kysely<SignatureTables> | Transaction<SignatureTables>

/** Who hears an event: the webhook endpoints subscribed to it (webhooks/endpoint-repository.ts). */
export interface EventSubscribers {
  subscribedTo(tx: Db, type: WebhookEventType): Promise<ReadonlyArray<{ id: string }>>
}

/**
 * What the parts that change state (sessions, the signature library) use to leave messages: rows
 * written with the caller's transaction, so they exist exactly when the change does. After the
 * commit the caller says so (`committed()`), which asks the dispatcher for a pass.
 */
export class OutboxWriter<Subscribers extends EventSubscribers = EventSubscribers> {
  #onCommit: () => void = () => {}

  constructor(readonly outbox: OutboxRepository, readonly endpoints: Subscribers) {}

  /** The dispatcher's kick; set once it exists (it needs the app's users and URLs). */
  afterCommit(listener: () => void): void {
    this.#onCommit = listener
  }

  async write(tx: Db, messages: readonly NewOutboxMessage[], at: string): Promise<void> {
    await this.outbox.insert(tx, messages, at)
  }

  /** One row per endpoint subscribed to `type` now. */
  async publish(tx: Db, type: WebhookEventType, data: unknown, at: string): Promise<void> {
    const endpoints = await this.endpoints.subscribedTo(tx, type)
    const payload: WebhookPayload = { type, created_at: at, data }
    await this.outbox.insert(tx, endpoints.map((e) => ({ channel: 'webhook' as const, topic: type, target: e.id, payload })), at)
  }

  committed(): void {
    this.#onCommit()
  }
}
