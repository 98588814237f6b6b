import { randomBytes } from 'node:crypto'

/** A positive 16-byte serial number in hex (RFC 5280 wants it unique per CA and at most 20 bytes). */
export function randomSerialNumber(): string {
  const bytes = randomBytes(16)
  // Clear the top bit: a DER INTEGER with it set would be negative.
  bytes[0] = (bytes[0]! & 0x7f) | 0x01
  return bytes.toString('hex')
}
