// RFC 6960 OCSPResponse: a BasicOCSPResponse signed by the application's CA itself (section
// 2.2: the CA that issued the certificates may sign directly, so clients need no delegated
// responder certificate). Pure: the statuses are looked up by the caller.
import { createHash, sign, type KeyObject } from 'node:crypto'
import { contextConstructed, nullValue, octetString, oid, sequence } from '../pdf/der.ts'
import type { CertificateFields } from './certificate-fields.ts'
import { bitString, enumerated, generalizedTime } from './der-values.ts'
import type { OcspCertId, OcspRequest } from './parse-ocsp-request.ts'

export const OCSP_STATUS = { successful: 0, malformedRequest: 1, internalError: 2, tryLater: 3 } as const

export type CertificateStatus = { status: 'good' } | { status: 'revoked'; at: Date } | { status: 'unknown' }

export interface OcspSigner {
  privateKey: KeyObject
  certificate: CertificateFields
}

/** How long a client may rely on an answer before asking again. */
export const OCSP_VALIDITY_MS = 60 * 60 * 1000

export function ocspFailure(status: Exclude<keyof typeof OCSP_STATUS, 'successful'>): Buffer {
  return sequence(enumerated(OCSP_STATUS[status]))
}

/** True when the CertID names our CA as the issuer (by both hashes, with the client's algorithm). */
export function isIssuedBy(certId: OcspCertId, issuer: CertificateFields): boolean {
  if (!certId.hash) return false
  const digest = (bytes: Buffer) => createHash(certId.hash!).update(bytes).digest()
  return digest(issuer.subjectDer).equals(certId.issuerNameHash) && digest(issuer.publicKeyBits).equals(certId.issuerKeyHash)
}

export function buildOcspResponse(request: OcspRequest, statuses: CertificateStatus[], signer: OcspSigner, now: Date): Buffer {
  const thisUpdate = generalizedTime(now)
  const nextUpdate = generalizedTime(new Date(now.getTime() + OCSP_VALIDITY_MS))
  const responses = request.certIds.map((certId, i) => {
    const status = statuses[i]!
    const certStatus = status.status === 'good' ? Buffer.from([0x80, 0x00])
      : status.status === 'unknown' ? Buffer.from([0x82, 0x00])
      : contextConstructed(1, generalizedTime(status.at))
    return sequence(certId.der, certStatus, thisUpdate, contextConstructed(0, nextUpdate))
  })
  const responseData = sequence(
    contextConstructed(1, signer.certificate.subjectDer), // responderID byName
    generalizedTime(now),
    sequence(...responses),
    ...(request.nonceExtensionDer ? [contextConstructed(1, sequence(request.nonceExtensionDer))] : []),
  )
  const basic = sequence(
    responseData,
    sequence(oid('1.2.840.113549.1.1.11'), nullValue()),
    bitString(sign('sha256', responseData, signer.privateKey)),
  )
  return sequence(enumerated(OCSP_STATUS.successful), contextConstructed(0, sequence(oid('1.3.6.1.5.5.7.48.1.1'), octetString(basic))))
}
