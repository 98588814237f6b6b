// Reads OCSP responses (RFC 6960) and CRLs (RFC 5280) and answers one question about one
// certificate: good, revoked (since when) or nothing said. A response counts only when its
// signature verifies with the certificate's issuer (or a responder the issuer delegated to).
import { X509Certificate } from 'node:crypto'
import { digestName, digest, verifySignature } from './algorithms.ts'
import { bits, content, integerHex, kids, octets, oidOf, parseNode, raw, tagged, timeOf, type Node } from '../pdf/read-der.ts'
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

/**
 * What a response or CRL says once its signature is checked against one issuer: the part of the
 * reading that does not depend on the certificate asked about. A document's answers are asked once
 * per signature and per certificate of each path (ten signatures: ten RSA checks of the same CRL),
 * so the reading is kept per answer (the Buffer, as read-der keeps trees) and per issuer
 * certificate (its fingerprint: subject, key and key usage); null when it says nothing trustworthy.
 * Which certificate an answer speaks of is looked up again on every call.
 */
const checked = new WeakMap<Buffer, Map<string, unknown>>()

function checkedOnce<T>(answer: Buffer, issuer: X509Certificate, read: () => T | null): T | null {
  let byIssuer = checked.get(answer)
  if (!byIssuer) checked.set(answer, byIssuer = new Map())
  const key = issuer.fingerprint256
  if (!byIssuer.has(key)) {
    let value: T | null
    try {
      value = read()
    } catch {
      value = null
    }
    byIssuer.set(key, value)
  }
  return byIssuer.get(key) as T | null
}

/** The status an OCSP response gives `certificate`, or undefined when it says nothing trustworthy about it. */
export function statusFromOcsp(response: Buffer, certificate: X509Certificate, issuer: X509Certificate): RevocationStatus | undefined {
  try {
    const responses = checkedOnce(response, issuer, () => signedOcspResponses(response, issuer))
    if (!responses) return undefined
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

/** A successful basic response signed by `issuer` or a responder it delegated to: its SingleResponses; null otherwise. */
function signedOcspResponses(response: Buffer, issuer: X509Certificate): Node[] | null {
  const top = kids(parseNode(response))
  if (content(top[0]!)[0] !== 0) return null // not "successful"
  const bytes = kids(kids(tagged(top, 0)!)[0]!)
  if (oidOf(bytes[0]!) !== OCSP_BASIC) return null
  const basic = kids(parseNode(octets(bytes[1]!)))
  const [tbs, algorithm, signature] = basic
  const certs = tagged(basic.slice(3), 0)
  const responders = certs ? kids(kids(certs)[0]!).map((n) => new X509Certificate(raw(n))) : []
  const signer = [issuer, ...responders.filter((r) => issuedBy(r, issuer) && (r.keyUsage ?? []).includes(OCSP_SIGNING))]
    .find((candidate) => verifySignature(algorithm!, raw(tbs!), candidate.publicKey, bits(signature!)))
  if (!signer) return null
  const data = kids(tbs!)
  const offset = data[0]!.tag === 0xa0 ? 1 : 0
  return kids(data[offset + 2]!)
}

/** The status a CRL gives `certificate`, or undefined when it is not the issuer's or does not verify. */
export function statusFromCrl(crl: Buffer, certificate: X509Certificate, issuer: X509Certificate): RevocationStatus | undefined {
  try {
    const signed = checkedOnce(crl, issuer, () => signedCrl(crl, issuer))
    if (!signed) return undefined
    const thisUpdate = new Date(signed.thisUpdate.getTime())
    const serial = certificateIdentity(certificate).serial
    for (const entry of signed.revokedList ? kids(signed.revokedList) : []) {
      const [entrySerial, date] = kids(entry)
      if (integerHex(entrySerial!) === serial) return { status: 'revoked', revokedAt: timeOf(date!), thisUpdate, kind: 'crl' }
    }
    return { status: 'good', thisUpdate, kind: 'crl' }
  } catch {
    return undefined
  }
}

/** A CRL `issuer` signed with a key allowed to sign CRLs: its thisUpdate and revoked list; null otherwise. */
function signedCrl(crl: Buffer, issuer: X509Certificate): { thisUpdate: Date; revokedList: Node | undefined } | null {
  const [tbs, algorithm, signature] = kids(parseNode(crl))
  const fields = kids(tbs!)
  const offset = fields[0]!.tag === 0x02 ? 1 : 0
  const crlIssuer = raw(fields[offset + 1]!)
  if (!crlIssuer.equals(certificateIdentity(issuer).subject)) return null
  // RFC 5280 §6.3.3 (f): a CRL counts only from a key allowed to sign CRLs.
  if (keyUsageBits(pkijsCertificate(issuer))?.cRLSign === false) return null
  if (!verifySignature(algorithm!, raw(tbs!), issuer.publicKey, bits(signature!))) return null
  return { thisUpdate: timeOf(fields[offset + 2]!), revokedList: fields.slice(offset + 3).find((n) => n.tag === 0x30) }
}

/** The most telling answer among several: a revocation beats a "good", a newer answer an older one. */
export function bestStatus(statuses: Array<RevocationStatus | undefined>): RevocationStatus | undefined {
  const known = statuses.filter((s): s is RevocationStatus => s !== undefined)
  return known.find((s) => s.status === 'revoked') ?? known.sort((a, b) => b.thisUpdate.getTime() - a.thisUpdate.getTime())[0]
}
