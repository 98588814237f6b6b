// RFC 3161 over HTTP (section 3.4): POST application/timestamp-query, answered with
// application/timestamp-reply. No redirect is followed; the wait and the answer's size are bounded.
import { request } from 'undici'

/** How a query reaches a TSA and its answer comes back: over HTTP here, in process for the app's own TSA. */
export type TimestampTransport = (query: Buffer) => Promise<Buffer>

export function httpTransport(url: string, options: { timeoutMs: number; maxResponseBytes: number }): TimestampTransport {
  return async (query) => {
    const signal = AbortSignal.timeout(options.timeoutMs)
    const response = await request(url, {
      method: 'POST',
      body: query,
      headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply', 'user-agent': 'signature-tsa-client/1' },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      signal,
    })
    if (response.statusCode !== 200) {
      await response.body.dump({ limit: 4096 }).catch(() => {})
      throw new Error(`HTTP ${response.statusCode}`)
    }
    const type = String(response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
    if (type !== 'application/timestamp-reply' && type !== 'application/timestamp-response') {
      await response.body.dump({ limit: 4096 }).catch(() => {})
      throw new Error(`answered ${type || 'without a content type'}, not application/timestamp-reply`)
    }
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length
      if (size > options.maxResponseBytes) {
        response.body.destroy()
        throw new Error(`the answer is larger than ${options.maxResponseBytes} bytes`)
      }
      chunks.push(chunk as Buffer)
    }
    return Buffer.concat(chunks)
  }
}
