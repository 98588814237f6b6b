import { pdfsigVerdicts } from './pdfsig.ts'

export type Verdict = { valid: true } | { valid: false; verdicts: string[] }

/**
 * Whether pdfsig finds exactly `count` signatures in `bytes`, every one "Signature is Valid.":
 * a signer's time is only reported for output that passes, never for a file that doesn't verify.
 */
export function verifiedOutput(bytes: Uint8Array, count = 1): Verdict {
  const verdicts = pdfsigVerdicts(bytes)
  return verdicts.length === count && verdicts.every((v) => v === 'Signature is Valid.') ? { valid: true } : { valid: false, verdicts }
}
