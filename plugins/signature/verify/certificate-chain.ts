// Builds the path from a signer's certificate to a trust anchor out of the certificates the
// document carries (CMS, DSS) and judges it: trusted when it ends at an anchor.
import type { X509Certificate } from 'node:crypto'

export interface ChainResult {
  /** The signer's certificate first, the anchor (when reached) last. */
  chain: X509Certificate[]
  trusted: boolean
  /** The certificate whose validity period does not contain the time, if any. */
  outOfValidity?: { certificate: X509Certificate; at: Date }
}

const MAX_PATH = 10

export function issuedBy(child: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return child.checkIssued(issuer) && child.verify(issuer.publicKey)
  } catch {
    return false
  }
}

export function buildChain(leaf: X509Certificate, pool: X509Certificate[], anchors: X509Certificate[]): ChainResult {
  const chain = [leaf]
  for (let current = leaf; chain.length <= MAX_PATH; ) {
    if (anchors.some((anchor) => anchor.fingerprint256 === current.fingerprint256)) return { chain, trusted: true }
    const anchor = anchors.find((candidate) => issuedBy(current, candidate))
    if (anchor) return { chain: [...chain, anchor], trusted: true }
    if (issuedBy(current, current)) return { chain, trusted: false }
    const issuer = pool.find((candidate) => !chain.includes(candidate) && candidate.fingerprint256 !== current.fingerprint256 && issuedBy(current, candidate))
    if (!issuer) return { chain, trusted: false }
    chain.push(issuer)
    current = issuer
  }
  return { chain, trusted: false }
}

/** The first certificate of the chain not valid at `at`. */
export function outOfValidity(chain: X509Certificate[], at: Date): X509Certificate | undefined {
  return chain.find((certificate) => at < new Date(certificate.validFrom) || at > new Date(certificate.validTo))
}
