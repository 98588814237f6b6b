import { createHash } from 'node:crypto'

/** The digest every signed document is recorded and compared by (rows, headers, audit trail). */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}
