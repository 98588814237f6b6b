// An RFC 3161 TimeStampResp: a PKIStatusInfo, then the token when the status is granted (0) or
// grantedWithMods (1). Anything else names the TSA's status and failure text.
import { content, expectTag, kids, parseRoot, raw, smallIntegerOf } from '../pdf/read-der.ts'
import { TimestampTokenError, verifyTimestampToken, type VerifiedTimestamp } from './timestamp-token.ts'
import type { TimestampQuery } from './timestamp-query.ts'

export interface CheckedToken extends VerifiedTimestamp {
  token: Buffer
}

export function readTimestampReply(reply: Buffer, query: TimestampQuery): CheckedToken {
  const [statusInfo, token] = kids(expectTag(parseRoot(reply, { der: true }), 0x30, 'a TimeStampResp'))
  const status = smallIntegerOf(expectTag(kids(expectTag(statusInfo, 0x30, 'a PKIStatusInfo'))[0], 0x02, 'a PKIStatus'))
  if (status !== 0 && status !== 1) {
    const text = kids(statusInfo!).slice(1).find((f) => f.tag === 0x30)
    const words = text ? kids(text).map((s) => content(s).toString('utf8')).join('; ') : ''
    throw new TimestampTokenError(`The TSA refused the request (status ${status}${words ? `: ${words.slice(0, 200)}` : ''})`)
  }
  if (!token) throw new TimestampTokenError('The TSA granted the request but sent no token')
  const der = Buffer.from(raw(token))
  return { token: der, ...verifyTimestampToken(der, query) }
}
