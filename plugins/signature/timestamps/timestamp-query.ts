// An RFC 3161 TimeStampReq: version 1, a SHA-256 message imprint, a random nonce, certReq TRUE
// (the token must carry the TSA's certificate, or its signature could not be checked here).
import { randomBytes } from 'node:crypto'
import { booleanValue, integer, nullValue, octetString, oid, sequence, unsignedInteger } from '../pdf/der.ts'

export const OID_SHA256 = '2.16.840.1.101.3.4.2.1'

export interface TimestampQuery {
  der: Buffer
  /** The nonce's magnitude, without leading zeros. */
  nonce: Buffer
  imprint: Buffer
}

export function createTimestampQuery(imprint: Buffer): TimestampQuery {
  if (imprint.length !== 32) throw new Error('A SHA-256 message imprint is 32 bytes')
  const nonce = randomBytes(16)
  nonce[0] = nonce[0]! | 0x01 // never a leading zero byte: the magnitude compares byte for byte
  const der = sequence(
    integer(1),
    sequence(sequence(oid(OID_SHA256), nullValue()), octetString(imprint)),
    unsignedInteger(nonce),
    booleanValue(true),
  )
  return { der, nonce, imprint }
}
