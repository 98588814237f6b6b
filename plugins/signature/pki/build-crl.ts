// RFC 5280 CRL v2 of the application's CA: every revoked certificate with its revocation time,
// a CRL number and the CA's key identifier. Built per request from the database, so every
// instance publishes the same revocations the moment they are committed.
import { sign, type KeyObject } from 'node:crypto'
import { contextConstructed, integer, nullValue, octetString, oid, sequence, time } from '../pdf/der.ts'
import type { CertificateFields } from './certificate-fields.ts'
import { bitString, contextPrimitive, smallInteger, unsignedInteger } from './der-values.ts'

/** A relying party fetches a fresh list after this. */
export const CRL_VALIDITY_MS = 24 * 60 * 60 * 1000

export interface CrlIssuer {
  privateKey: KeyObject
  certificate: CertificateFields
}

export function buildCrl(revoked: ReadonlyArray<{ serial: string; revokedAt: Date }>, issuer: CrlIssuer, now: Date): Buffer {
  const algorithm = sequence(oid('1.2.840.113549.1.1.11'), nullValue())
  const entries = revoked.map((entry) => sequence(unsignedInteger(Buffer.from(entry.serial.length % 2 ? `0${entry.serial}` : entry.serial, 'hex')), time(entry.revokedAt)))
  // The CRL number must grow with every CRL issued; seconds since the epoch do, on every instance
  // whose clock is right, without a counter shared between them.
  const crlNumber = smallInteger(Math.floor(now.getTime() / 1000))
  const extensions = sequence(
    sequence(oid('2.5.29.35'), octetString(sequence(contextPrimitive(0, issuer.certificate.keyIdentifier)))),
    sequence(oid('2.5.29.20'), octetString(crlNumber)),
  )
  const tbs = sequence(
    integer(1), // v2
    algorithm,
    issuer.certificate.subjectDer,
    time(now),
    time(new Date(now.getTime() + CRL_VALIDITY_MS)),
    ...(entries.length ? [sequence(...entries)] : []),
    contextConstructed(0, extensions),
  )
  return sequence(tbs, algorithm, bitString(sign('sha256', tbs, issuer.privateKey)))
}
