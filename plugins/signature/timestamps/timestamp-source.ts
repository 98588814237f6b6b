// Where signature timestamps come from, as plain data: it is set once per PDF worker thread from
// the pool's settings (pdf-worker.ts), because the signing and the request both run there.
// null means no timestamps (PAdES B-B).

export interface TimestampSource {
  /** RFC 3161 TSAs over HTTP(S), tried in this order until one gives a valid token. */
  urls: string[]
  /**
   * The application's own TSA (its key and certificate, then the CA's, as PEM), asked in-process
   * after the URLs: the default when no URL is configured. Its answers go through the same
   * checks as a remote TSA's.
   */
  authority?: { keyPem: string; certificatesPem: string[] }
  /** Longest wait for one TSA's whole answer. */
  timeoutMs?: number
  /** Larger answers are refused (a token with its certificates is a few KiB). */
  maxResponseBytes?: number
}

export const DEFAULT_TSA_TIMEOUT_MS = 5_000
export const DEFAULT_TSA_MAX_RESPONSE_BYTES = 128 * 1024

let configured: TimestampSource | null = null

/** Set once per worker thread (pdf-worker.ts); the main thread keeps none unless a test sets it. */
export function configureTimestamps(source: TimestampSource | null | undefined): void {
  configured = hasAnyTsa(source) ? source! : null
}

/** An explicit source wins (null: none); otherwise the thread's configured one. */
export function timestampSourceFor(explicit: TimestampSource | null | undefined): TimestampSource | null {
  if (explicit === undefined) return configured
  return hasAnyTsa(explicit) ? explicit! : null
}

function hasAnyTsa(source: TimestampSource | null | undefined): boolean {
  return !!source && (source.urls.length > 0 || !!source.authority)
}
