import { createHmac, randomBytes } from 'node:crypto'

// Standard Webhooks (standardwebhooks.com): the secret is `whsec_` + base64 of the key; the
// signature is `v1,` + base64 HMAC-SHA256 over `${id}.${timestamp}.${body}` with the decoded key.

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64')
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
}

/** The three headers of one delivery; the timestamp is in seconds, as the scheme says. */
export function webhookHeaders(secret: string, id: string, body: string, now: Date): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000)
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(secret, id, timestamp, body) }
}
