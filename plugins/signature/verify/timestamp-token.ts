// An RFC 3161 timestamp token: a CMS SignedData over a TSTInfo whose message imprint is the hash
// of what was timestamped (a signature value, or a document's byte ranges).
import type { X509Certificate } from 'node:crypto'
import { digest, digestName } from './algorithms.ts'
import { content, kids, parseNode, timeOf } from '../pdf/read-der.ts'
import { buildChain, outOfValidity, purposeProblem } from './certificate-chain.ts'
import { nameText } from './certificate-identity.ts'
import type { CertificateReader } from './certificate-reader.ts'
import { OID, parseSignedData, type SignedData } from './cms.ts'
import { verifySignedData } from './verify-signed-data.ts'
import type { SignatureFailure } from './check-signature.ts'

export interface TimestampCheck {
  /** genTime, ISO 8601. */
  time: string | null
  /** The TSA certificate's subject. */
  tsa: string | null
  /** Imprint matches and the TSA's signature verifies. */
  valid: boolean
  /** The TSA's certificate leads to a trust anchor. */
  trusted: boolean
  problem?: string
  /** Why not valid, for a program (etsi-validation.ts). */
  failure?: SignatureFailure
  certificate?: X509Certificate
  signedData?: SignedData
  /** The TSA's certificate first, then its issuers as far as found (the anchor last when trusted). */
  chain?: X509Certificate[]
}

/** `digestOf`, when given, gives the digest of `timestamped` by algorithm without reading it (covered-digests.ts). */
export async function checkTimestampToken(token: Buffer, timestamped: Buffer[], anchors: X509Certificate[], pool: X509Certificate[], certificates?: CertificateReader, digestOf?: (algorithm: string) => Buffer): Promise<TimestampCheck> {
  let signedData: SignedData
  let time: Date
  let imprintOk: boolean
  try {
    signedData = parseSignedData(token, certificates)
    if (signedData.eContentType !== OID.tstInfo || !signedData.eContent) throw new Error('not a TSTInfo')
    const tst = kids(parseNode(signedData.eContent))
    // version, policy, messageImprint, serialNumber, genTime, ...
    const [algorithm, hashed] = kids(tst[2]!)
    const hashName = digestName(algorithm!)
    imprintOk = content(hashed!).equals(digestOf ? digestOf(hashName) : digest(hashName, timestamped))
    time = timeOf(tst[4]!)
  } catch (error) {
    return { time: null, tsa: null, valid: false, trusted: false, failure: 'format', problem: `The timestamp token cannot be read: ${(error as Error).message}` }
  }
  const check = verifySignedData(signedData, [signedData.eContent!])
  const tsa = check.signer ? nameText(check.signer.subject) : null
  const base = { time: time.toISOString(), tsa, certificate: check.signer, signedData }
  if (!imprintOk) return { ...base, valid: false, trusted: false, failure: 'hash', problem: 'The timestamp was made for other data than this signature' }
  if (!check.valid) return { ...base, valid: false, trusted: false, failure: check.failure ?? 'crypto', problem: `The timestamp's own signature is not valid: ${check.problem}` }
  // A token counts only from a certificate made for timestamps (RFC 3161 §2.3) and valid when it says it was made.
  const notForTimestamps = purposeProblem(check.signer!, 'timestamping')
  if (notForTimestamps) return { ...base, valid: false, trusted: false, failure: 'purpose', problem: notForTimestamps }
  if (outOfValidity([check.signer!], time)) return { ...base, valid: false, trusted: false, failure: 'validity', problem: `The timestamp authority's certificate was not valid at the time the timestamp names (${base.time})` }
  const chain = await buildChain(check.signer!, [...signedData.certificates, ...pool], anchors, { at: time, purpose: 'timestamping' })
  return { ...base, valid: true, trusted: chain.trusted, chain: chain.chain, ...(chain.problem ? { problem: chain.problem } : {}) }
}
