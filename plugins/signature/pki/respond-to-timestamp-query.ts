// The application's timestamp authority (RFC 3161): a TimeStampReq in, a TimeStampResp out.
// Pure (the key, the certificates and the time are given), so the signing code can call it
// in-process and the HTTP route is only its transport.
import { createHash, randomBytes, sign, type KeyObject } from 'node:crypto'
import { contextConstructed, integer, nullValue, octetString, oid, sequence, setOf } from '../pdf/der.ts'
import { certificateFields } from './certificate-fields.ts'
import { generalizedTime, namedBits, unsignedInteger, utf8String } from './der-values.ts'
import { parseTimestampQuery, TimestampQueryError, TSA_FAILURE } from './parse-timestamp-query.ts'

/**
 * The TSA's policy. 2.25 is the arc of OIDs made from a UUID (ITU-T X.667, RFC 4122 section 1):
 * anyone may mint one without registering, and it cannot collide with another issuer's.
 */
export const TSA_POLICY_OID = '2.25.46072830473049991776028320440527017806'

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
}

export interface TimestampAuthorityKeys {
  privateKey: KeyObject
  /** DER: the TSA's own certificate first, then the CA's. */
  certificates: Buffer[]
}

/** PKIStatus values (RFC 3161 section 2.4.2) this TSA answers with. */
export const PKI_STATUS = { granted: 0, rejection: 2 } as const

export function respondToTimestampQuery(query: Buffer, authority: TimestampAuthorityKeys, now: Date): Buffer {
  try {
    const request = parseTimestampQuery(query)
    if (request.policy !== null && request.policy !== TSA_POLICY_OID) {
      throw new TimestampQueryError('unacceptedPolicy', `this TSA issues under policy ${TSA_POLICY_OID} only`)
    }
    const tstInfo = sequence(
      integer(1),
      oid(TSA_POLICY_OID),
      request.messageImprintDer,
      unsignedInteger(randomSerial()),
      generalizedTime(now, { millis: true }),
      sequence(integer(1)), // accuracy: one second
      ...(request.nonceDer ? [request.nonceDer] : []),
    )
    const token = signTstInfo(tstInfo, authority, request.certReq)
    return sequence(sequence(integer(PKI_STATUS.granted)), token)
  } catch (error) {
    if (error instanceof TimestampQueryError) return rejection(error.failure, error.message)
    return rejection('systemFailure', 'the timestamp could not be made')
  }
}

function rejection(failure: keyof typeof TSA_FAILURE, text: string): Buffer {
  return sequence(sequence(integer(PKI_STATUS.rejection), sequence(utf8String(text)), namedBits(TSA_FAILURE[failure])))
}

function randomSerial(): Buffer {
  const bytes = randomBytes(16)
  bytes[0] = (bytes[0]! & 0x7f) | 0x01 // positive and of full length
  return bytes
}

/** TimeStampToken: CMS SignedData over the TSTInfo, signed attributes with ESS signing-certificate-v2. */
function signTstInfo(tstInfo: Buffer, authority: TimestampAuthorityKeys, includeCertificates: boolean): Buffer {
  const own = certificateFields(authority.certificates[0]!)
  const sha256 = sequence(oid(OID.sha256), nullValue())
  const essCertIdV2 = sequence(
    // hashAlgorithm is omitted: it is SHA-256, the DEFAULT, which DER must not encode.
    octetString(createHash('sha256').update(own.der).digest()),
    sequence(sequence(contextConstructed(4, own.issuerDer)), own.serialDer),
  )
  const attributes = [
    sequence(oid(OID.contentType), setOf(oid(OID.tstInfo))),
    sequence(oid(OID.messageDigest), setOf(octetString(createHash('sha256').update(tstInfo).digest()))),
    sequence(oid(OID.signingCertificateV2), setOf(sequence(sequence(essCertIdV2)))),
  ]
  const signedAttributes = setOf(...attributes)
  const ec = authority.privateKey.asymmetricKeyType === 'ec'
  const signature = sign('sha256', signedAttributes, authority.privateKey)
  const signerInfo = sequence(
    integer(1),
    sequence(own.issuerDer, own.serialDer),
    sha256,
    // The same SET re-tagged [0] IMPLICIT, as RFC 5652 section 5.4 prescribes.
    Buffer.concat([Buffer.from([0xa0]), signedAttributes.subarray(1)]),
    ec ? sequence(oid(OID.ecdsaWithSha256)) : sequence(oid(OID.sha256WithRsa), nullValue()),
    octetString(signature),
  )
  const signedData = sequence(
    integer(3),
    setOf(sha256),
    sequence(oid(OID.tstInfo), contextConstructed(0, octetString(tstInfo))),
    ...(includeCertificates ? [contextConstructed(0, ...authority.certificates)] : []),
    setOf(signerInfo),
  )
  return sequence(oid(OID.signedData), contextConstructed(0, signedData))
}
