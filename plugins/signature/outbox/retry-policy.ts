export interface RetryPolicy {
  /** Delay after the first failure; doubled after each further one. */
  baseMs: number
  /** No single wait is longer than this. */
  capMs: number
  /** A row this old (since it was written) is given up after its next failure: it becomes 'failed'. */
  giveUpAfterMs: number
}

/** Webhooks are retried for up to a day (Standard Webhooks' receivers expect hours, not minutes). */
export const DEFAULT_RETRY: RetryPolicy = { baseMs: 10_000, capMs: 60 * 60_000, giveUpAfterMs: 24 * 60 * 60_000 }

/**
 * When to try again after `failures` failed attempts, or null to give up. Exponential, capped,
 * with up to 20 % jitter so rows that failed together (a receiver down) do not return together.
 */
export function nextAttemptAt(policy: RetryPolicy, createdAt: string, failures: number, now: Date, random = Math.random): string | null {
  const age = now.getTime() - Date.parse(createdAt)
  if (age >= policy.giveUpAfterMs) return null
  const exponential = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, failures - 1))
  const delay = Math.round(exponential * (1 + 0.2 * random()))
  return new Date(now.getTime() + delay).toISOString()
}
