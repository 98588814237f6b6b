// Real peers for e-mail and webhooks, started by a test on 127.0.0.1: an SMTP server (the
// smtp-server package) that keeps every message it accepts, and an HTTP receiver (node:http) that
// checks each delivery's Standard Webhooks signature itself. Waiting is on arrivals, not on time.
import { createHmac, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

interface TapLike { teardown(fn: () => unknown): void }

export interface ReceivedMail { to: string[]; raw: string; subject: string; messageId: string; text: string }
export interface ReceivedWebhook { headers: IncomingHttpHeaders; body: string; json: any; signatureValid: boolean; answered: boolean }

/** Resolves when `list` holds `count` items; fails naming what arrived if they do not come. */
function arrivals<T>(list: T[], what: string) {
  const waiters: Array<{ count: number; resolve: () => void }> = []
  return {
    push(item: T) {
      list.push(item)
      for (const w of waiters.filter((w) => list.length >= w.count)) w.resolve()
    },
    waitFor(count: number, timeoutMs = 30_000): Promise<T[]> {
      if (list.length >= count) return Promise.resolve(list)
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${what}: ${list.length} of ${count} arrived in ${timeoutMs} ms`)), timeoutMs)
        waiters.push({ count, resolve: () => { clearTimeout(timer); resolve(list) } })
      })
    },
  }
}

const header = (raw: string, name: string) => new RegExp(`^${name}: (.*(?:\\r?\\n[ \\t].*)*)`, 'mi').exec(raw)?.[1]?.replace(/\r?\n[ \t]/g, ' ').trim() ?? ''

export async function startSmtpPeer(t: TapLike) {
  const messages: ReceivedMail[] = []
  const inbox = arrivals(messages, 'mail')
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const body = raw.split(/\r?\n\r?\n/).slice(1).join('\n\n')
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, subject: header(raw, 'Subject'), messageId: header(raw, 'Message-ID'), text: body.replace(/=\r?\n/g, '').replace(/=3D/g, '=') })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.server.address() as AddressInfo).port
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `smtp://127.0.0.1:${port}`, messages, waitFor: inbox.waitFor }
}

/** Verifies like a receiver following Standard Webhooks would, written here independently of the server's code. */
export function verifyStandardWebhook(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const id = String(headers['webhook-id'] ?? '')
  const timestamp = String(headers['webhook-timestamp'] ?? '')
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64')
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest()
  return String(headers['webhook-signature'] ?? '').split(' ').some((entry) => {
    const [version, signature] = entry.split(',')
    const given = Buffer.from(signature ?? '', 'base64')
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected)
  })
}

/** `answer(n)`: the status for the n-th delivery (from 0), or 'hold' to never answer it. */
export async function startWebhookPeer(t: TapLike, options: { answer?: (index: number) => number | 'hold' } = {}) {
  const deliveries: ReceivedWebhook[] = []
  const received = arrivals(deliveries, 'webhooks')
  let secret = ''
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (c: Buffer) => chunks.push(c))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const status = options.answer?.(deliveries.length) ?? 204
      if (status !== 'hold') response.writeHead(status).end()
      received.push({ headers: request.headers, body, json: JSON.parse(body), signatureValid: verifyStandardWebhook(secret, request.headers, body), answered: status !== 'hold' })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const port = (server.address() as AddressInfo).port
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }))
  return { url: `http://127.0.0.1:${port}/hooks`, port, deliveries, waitFor: received.waitFor, useSecret: (s: string) => { secret = s } }
}
