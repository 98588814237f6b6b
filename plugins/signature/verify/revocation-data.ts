// Reads OCSP responses (RFC 6960) and CRLs (RFC 5280) and answers one question about one
// certificate: good, revoked (since when) or nothing said. A response counts only when its
// signature verifies with the certificate's issuer (or a responder the issuer delegated to).
import { X509Certificate } from 'node:crypto'
import { digestName, digest, verifySignature } from './algorithms.ts'
import { bits, content, integerHex, kids, octets, oidOf, parseNode, raw, tagged, timeOf } from '../pdf/read-der.ts'
import { issuedBy, keyUsageBits, pkijsCertificate } from './certificate-chain.ts'
import { certificateIdentity } from './certificate-identity.ts'

export interface RevocationStatus {
  status: 'good' | 'revoked'
  revokedAt?: Date
  /** When the answer was produced (OCSP thisUpdate, CRL thisUpdate). */
  thisUpdate: Date
  kind: 'ocsp' | 'crl'
}

const OCSP_BASIC = '1.3.6.1.5.5.7.48.1.1'
const OCSP_SIGNING = '1.3.6.1.5.5.7.3.9'

/** The status an OCSP response gives `certificate`, or undefined when it says nothing trustworthy about it. */
export function statusFromOcsp(response: Buffer, certificate: X509Certificate, issuer: X509Certificate): RevocationStatus | undefined {
  try {
    const top = kids(parseNode(response))
    if (content(top[0]!)[0] !== 0) return undefined // not "successful"
    const bytes = kids(kids(tagged(top, 0)!)[0]!)
    if (oidOf(bytes[0]!) !== OCSP_BASIC) return undefined
    const basic = kids(parseNode(octets(bytes[1]!)))
    const [tbs, algorithm, signature] = basic
    const certs = tagged(basic.slice(3), 0)
    const responders = certs ? kids(kids(certs)[0]!).map((n) => new X509Certificate(raw(n))) : []
    const signer = [issuer, ...responders.filter((r) => issuedBy(r, issuer) && (r.keyUsage ?? []).includes(OCSP_SIGNING))]
      .find((candidate) => verifySignature(algorithm!, raw(tbs!), candidate.publicKey, bits(signature!)))
    if (!signer) return undefined
    const data = kids(tbs!)
    const offset = data[0]!.tag === 0xa0 ? 1 : 0
    const responses = kids(data[offset + 2]!)
    const wanted = certificateIdentity(certificate)
    const issuerIdentity = certificateIdentity(issuer)
    for (const single of responses) {
      const [certId, certStatus, thisUpdate] = kids(single)
      const [hashAlgorithm, nameHash, keyHash, serial] = kids(certId!)
      const hash = digestName(hashAlgorithm!)
      if (integerHex(serial!) !== wanted.serial) continue
      if (!content(nameHash!).equals(digest(hash, [issuerIdentity.subject]))) continue
      if (!content(keyHash!).equals(digest(hash, [issuerIdentity.publicKeyBits]))) continue
      const when = timeOf(thisUpdate!)
      if (certStatus!.tag === 0x80) return { status: 'good', thisUpdate: when, kind: 'ocsp' }
      if (certStatus!.tag === 0xa1) return { status: 'revoked', revokedAt: timeOf(kids(certStatus!)[0]!), thisUpdate: when, kind: 'ocsp' }
      return undefined // "unknown"
    }
    return undefined
  } catch {
    return undefined
  }
}

/** The status a CRL gives `certificate`, or undefined when it is not the issuer's or does not verify. */
export function statusFromCrl(crl: Buffer, certificate: X509Certificate, issuer: X509Certificate): RevocationStatus | undefined {
  try {
    const [tbs, algorithm, signature] = kids(parseNode(crl))
    const fields = kids(tbs!)
    const offset = fields[0]!.tag === 0x02 ? 1 : 0
    const crlIssuer = raw(fields[offset + 1]!)
    if (!crlIssuer.equals(certificateIdentity(issuer).subject)) return undefined
    // RFC 5280 §6.3.3 (f): a CRL counts only from a key allowed to sign CRLs.
    if (keyUsageBits(pkijsCertificate(issuer))?.cRLSign === false) return undefined
    if (!verifySignature(algorithm!, raw(tbs!), issuer.publicKey, bits(signature!))) return undefined
    const thisUpdate = timeOf(fields[offset + 2]!)
    const revokedList = fields.slice(offset + 3).find((n) => n.tag === 0x30)
    const serial = certificateIdentity(certificate).serial
    for (const entry of revokedList ? kids(revokedList) : []) {
      const [entrySerial, date] = kids(entry)
      if (integerHex(entrySerial!) === serial) return { status: 'revoked', revokedAt: timeOf(date!), thisUpdate, kind: 'crl' }
    }
    return { status: 'good', thisUpdate, kind: 'crl' }
  } catch {
    return undefined
  }
}

/** The most telling answer among several: a revocation beats a "good", a newer answer an older one. */
export function bestStatus(statuses: Array<RevocationStatus | undefined>): RevocationStatus | undefined {
  const known = statuses.filter((s): s is RevocationStatus => s !== undefined)
  return known.find((s) => s.status === 'revoked') ?? known.sort((a, b) => b.thisUpdate.getTime() - a.thisUpdate.getTime())[0]
}
