import { lookup, type LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import { Agent, request } from 'undici'
import type { SecretBox } from '../library/secret-box.ts'
import type { OutboxSender, SendResult } from '../outbox/outbox-dispatcher.ts'
import type { SignatureOutboxTable } from '../outbox/outbox-tables.ts'
import type { EndpointRepository } from './endpoint-repository.ts'
import type { WebhookPayload } from '../outbox/webhook-events.ts'
import { webhookHeaders } from './webhook-signature.ts'
import { isPrivateAddress } from './webhook-target.ts'

export interface WebhookSenderOptions {
  endpoints: EndpointRepository
  secrets: SecretBox
  allowPrivate: boolean
  /** Connecting, sending and the whole answer together. */
  timeoutMs?: number
  now?: () => Date
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/**
 * The resolver the connection itself uses: the address checked is the address connected to, so a
 * name that resolved to a public address at registration and to 127.0.0.1 now is refused now.
 */
function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, [])
      const refused = allowPrivate ? [] : addresses.filter((a) => isPrivateAddress(a.address))
      if (refused.length || addresses.length === 0) {
        return callback(Object.assign(new Error(`${hostname} resolves to ${refused.map((a) => a.address).join(', ') || 'nothing'}: refused (loopback or private)`), { code: 'ERR_WEBHOOK_TARGET_PRIVATE' }), [])
      }
      if (options.all) return callback(null, addresses)
      callback(null, addresses[0]!.address, addresses[0]!.family)
    })
  }
}

/** Posts one outbox row to its endpoint, signed per Standard Webhooks; never follows a redirect. */
export class WebhookSender implements OutboxSender {
  readonly #options: WebhookSenderOptions
  readonly #agent: Agent
  readonly #timeoutMs: number

  constructor(options: WebhookSenderOptions) {
    this.#options = options
    this.#timeoutMs = options.timeoutMs ?? 10_000
    this.#agent = new Agent({
      connect: { lookup: guardedLookup(options.allowPrivate) as never, timeout: this.#timeoutMs },
      headersTimeout: this.#timeoutMs,
      bodyTimeout: this.#timeoutMs,
    })
  }

  async send(row: SignatureOutboxTable): Promise<SendResult> {
    const endpoint = await this.#options.endpoints.find(row.target)
    if (!endpoint || endpoint.status !== 'active') return { ok: false, permanent: true, error: 'The endpoint was deleted', summary: null }
    const url = new URL(endpoint.url)
    const summary = `POST ${endpoint.url}`
    // An IP literal is connected to without any lookup: check it here.
    const literal = url.hostname.replace(/^\[|\]$/g, '')
    if (isIP(literal) && !this.#options.allowPrivate && isPrivateAddress(literal)) {
      return { ok: false, error: `${literal} is a loopback or private address: refused`, summary }
    }
    const payload = JSON.parse(row.payload) as WebhookPayload
    const body = JSON.stringify({ id: row.message_id, type: payload.type, created_at: payload.created_at, data: payload.data })
    const secret = this.#options.secrets.open(endpoint.secret_sealed, endpoint.id)
    const now = this.#options.now?.() ?? new Date()
    try {
      // undici's request() follows no redirect unless told to: a 3xx is an answer, not a success.
      const response = await request(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'user-agent': 'signature-webhooks/1', ...webhookHeaders(secret, row.message_id, body, now) },
        dispatcher: this.#agent,
        signal: AbortSignal.timeout(this.#timeoutMs),
      })
      await response.body.dump({ limit: 64 * 1024 }).catch(() => {})
      const ok = response.statusCode >= 200 && response.statusCode < 300
      return { ok, statusCode: response.statusCode, error: ok ? null : `HTTP ${response.statusCode}`, summary }
    } catch (error) {
      const e = error as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException }
      return { ok: false, error: `${e.cause?.code ?? e.code ?? e.name}: ${e.cause?.message ?? e.message}`, summary }
    }
  }

  close(): Promise<void> {
    return this.#agent.close()
  }
}
