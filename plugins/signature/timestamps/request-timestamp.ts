// Gets a signature timestamp from the configured TSAs, in order: the first valid token wins; a
// TSA that is down, slow, or answers anything but a valid token for this very query is passed
// over. When none gives one the signature is refused (fail closed): a signature silently made
// without its timestamp would be weaker evidence than the configuration promises.
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto'
import { respondToTimestampQuery, type TimestampAuthorityKeys } from '../pki/respond-to-timestamp-query.ts'
import { ERR_TIMESTAMP_UNAVAILABLE } from './errors.ts'
import { httpTransport, type TimestampTransport } from './http-transport.ts'
import { readTimestampReply, type CheckedToken } from './timestamp-reply.ts'
import { createTimestampQuery } from './timestamp-query.ts'
import { DEFAULT_TSA_MAX_RESPONSE_BYTES, DEFAULT_TSA_TIMEOUT_MS, type TimestampSource } from './timestamp-source.ts'

export interface NamedTransport {
  /** For messages: the TSA's address without credentials or query. */
  name: string
  send: TimestampTransport
}

export function transportsFor(source: TimestampSource): NamedTransport[] {
  const options = { timeoutMs: source.timeoutMs ?? DEFAULT_TSA_TIMEOUT_MS, maxResponseBytes: source.maxResponseBytes ?? DEFAULT_TSA_MAX_RESPONSE_BYTES }
  const remote = source.urls.map((url) => ({ name: displayName(url), send: httpTransport(url, options) }))
  return source.authority ? [...remote, { name: 'the application TSA', send: inProcessTransport(source.authority) }] : remote
}

/** The application's TSA, answering in this thread: no network, the same reply a POST /pki/tsa gets. */
function inProcessTransport(authority: NonNullable<TimestampSource['authority']>): TimestampTransport {
  let keys: TimestampAuthorityKeys | null = null
  return async (query) => {
    keys ??= { privateKey: createPrivateKey(authority.keyPem), certificates: authority.certificatesPem.map((pem) => Buffer.from(new X509Certificate(pem).raw)) }
    return respondToTimestampQuery(query, keys, new Date())
  }
}

/**
 * A token over `message` (for a signature timestamp: the SignerInfo's signature value).
 * @param deadline Epoch ms after which no further TSA is tried (the worker's task has a time limit).
 */
export async function requestTimestamp(message: Buffer, transports: NamedTransport[], deadline = Infinity): Promise<CheckedToken> {
  const imprint = createHash('sha256').update(message).digest()
  const failures: string[] = []
  for (const transport of transports) {
    if (Date.now() >= deadline) {
      failures.push(`${transport.name}: not tried, no time left`)
      continue
    }
    // A fresh nonce per TSA: an answer meant for another query cannot pass.
    const query = createTimestampQuery(imprint)
    try {
      return readTimestampReply(await transport.send(query.der), query)
    } catch (error) {
      const e = error as Error & { code?: string; cause?: { code?: string; message?: string } }
      failures.push(`${transport.name}: ${e.cause?.code ?? e.code ?? ''} ${e.cause?.message ?? e.message}`.replace(/:\s+/, ': '))
    }
  }
  throw ERR_TIMESTAMP_UNAVAILABLE(
    `No timestamp authority gave a valid timestamp (${failures.length} tried), so the signature was not made; try again shortly`,
    { details: { failures } },
  )
}

function displayName(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`
  } catch {
    return 'an invalid URL'
  }
}
