// RFC 3161 TimeStampReq, read strictly: anything that is not exactly the structure refuses with
// the PKIFailureInfo bit a client can act on, never with an exception out of the responder.
import { content, expectTag, kids, oidOf, parseRoot, raw, type Node } from '../pdf/read-der.ts'

/** PKIFailureInfo bits (RFC 3161 section 2.4.2). */
export const TSA_FAILURE = { badAlg: 0, badRequest: 2, badDataFormat: 5, unacceptedPolicy: 15, unacceptedExtension: 16, systemFailure: 25 } as const

export class TimestampQueryError extends Error {
  constructor(readonly failure: keyof typeof TSA_FAILURE, message: string) {
    super(message)
  }
}

/** Imprint algorithms accepted, with their digest lengths: SHA-1 and weaker are refused (badAlg). */
export const IMPRINT_ALGORITHMS: Record<string, { name: string; length: number }> = {
  '2.16.840.1.101.3.4.2.1': { name: 'sha256', length: 32 },
  '2.16.840.1.101.3.4.2.2': { name: 'sha384', length: 48 },
  '2.16.840.1.101.3.4.2.3': { name: 'sha512', length: 64 },
}

export interface TimestampQuery {
  /** The request's MessageImprint exactly as sent: TSTInfo repeats it. */
  messageImprintDer: Buffer
  algorithm: string
  /** The nonce's INTEGER exactly as sent (tag and length included), echoed in TSTInfo. */
  nonceDer: Buffer | null
  policy: string | null
  certReq: boolean
}

export function parseTimestampQuery(query: Buffer): TimestampQuery {
  let fields: Node[]
  try {
    fields = kids(expectTag(parseRoot(query, { der: true }), 0x30, 'a TimeStampReq'))
  } catch (cause) {
    throw new TimestampQueryError('badRequest', `not a DER TimeStampReq (${(cause as Error).message})`)
  }
  let at = 0
  const next = () => fields[at]
  const version = fields[at++]
  if (!version || version.tag !== 0x02 || content(version).toString('hex') !== '01') throw new TimestampQueryError('badRequest', 'the version must be 1')

  const imprint = fields[at++]
  if (!imprint || imprint.tag !== 0x30) throw new TimestampQueryError('badRequest', 'no messageImprint')
  let algorithm: string
  let digest: Buffer
  try {
    const [algorithmId, hashed, ...rest] = kids(imprint)
    if (!algorithmId || algorithmId.tag !== 0x30 || !hashed || hashed.tag !== 0x04 || rest.length) throw new Error('shape')
    const [algorithmOid, parameters, ...more] = kids(algorithmId)
    if (!algorithmOid || algorithmOid.tag !== 0x06 || more.length) throw new Error('algorithm')
    if (parameters && !(parameters.tag === 0x05 && parameters.contentEnd === parameters.contentStart)) throw new Error('algorithm parameters')
    algorithm = oidOf(algorithmOid)
    digest = content(hashed)
  } catch {
    throw new TimestampQueryError('badRequest', 'the messageImprint is malformed')
  }
  const known = IMPRINT_ALGORITHMS[algorithm]
  if (!known) throw new TimestampQueryError('badAlg', `the imprint algorithm ${algorithm} is not accepted (SHA-256, SHA-384 or SHA-512)`)
  if (digest.length !== known.length) throw new TimestampQueryError('badDataFormat', `a ${known.name} imprint is ${known.length} bytes, not ${digest.length}`)

  let policy: string | null = null
  if (next()?.tag === 0x06) {
    try {
      policy = oidOf(fields[at++]!)
    } catch {
      throw new TimestampQueryError('badRequest', 'the reqPolicy is malformed')
    }
  }
  let nonceDer: Buffer | null = null
  if (next()?.tag === 0x02) {
    const nonce = fields[at++]!
    // 64 bits is what clients send (openssl, the other TSA clients); 160 leaves room and no more.
    if (nonce.contentEnd === nonce.contentStart || nonce.contentEnd - nonce.contentStart > 20) throw new TimestampQueryError('badRequest', 'the nonce must be 1 to 20 bytes')
    nonceDer = raw(nonce)
  }
  let certReq = false
  if (next()?.tag === 0x01) {
    const flag = content(fields[at++]!)
    // DER: TRUE is 0xff, and a DEFAULT FALSE is never encoded.
    if (flag.length !== 1 || flag[0] !== 0xff) throw new TimestampQueryError('badRequest', 'certReq must be DER TRUE when present')
    certReq = true
  }
  if (next()?.tag === 0xa0) throw new TimestampQueryError('unacceptedExtension', 'no request extension is supported')
  if (at !== fields.length) throw new TimestampQueryError('badRequest', 'unexpected fields in the TimeStampReq')
  return { messageImprintDer: raw(imprint), algorithm, nonceDer, policy, certReq }
}
