// The cryptographic facts about one signature: integrity of what it covers, who signed, the
// chain to a trust anchor, its timestamp, and its certificate's revocation status.
import type { X509Certificate } from 'node:crypto'
import { digest } from './algorithms.ts'
import { buildChain, type ChainResult } from './certificate-chain.ts'
import { certificateIdentity } from './certificate-identity.ts'
import type { CertificateReader } from './certificate-reader.ts'
import type { CoveredDigests } from './covered-digests.ts'
import { attribute, OID, parseSignedData, type SignedData } from './cms.ts'
import { kids, raw, tagged } from '../pdf/read-der.ts'
import { onlineStatus, type OnlineOptions } from './online-revocation.ts'
import type { FoundSignature } from './pdf-signatures.ts'
import { bestStatus, statusFromCrl, statusFromOcsp, type RevocationStatus } from './revocation-data.ts'
import { checkTimestampToken, type TimestampCheck } from './timestamp-token.ts'
import { verifySignedData, type SignedDataFailure } from './verify-signed-data.ts'
import type { DssContents } from './dss-contents.ts'
import type { RevocationSource } from './verification-report.ts'

/**
 * Which check failed when integrity is false (etsi-validation.ts maps it): the file's structure or
 * the CMS could not be read ('format'), one of verifySignedData's checks, or for a timestamp
 * token a certificate not made for timestamps ('purpose') or not valid at its time ('validity').
 */
export type SignatureFailure = 'format' | SignedDataFailure | 'purpose' | 'validity'

export interface SignatureFacts {
  integrity: boolean
  problems: string[]
  /** Set whenever integrity is false. */
  failure?: SignatureFailure
  signer?: X509Certificate
  chain?: ChainResult
  /** ESS signing-certificate(-v2) present and matching. */
  essBound: boolean
  /** The signature-time-stamp-token (B-T), or for a document timestamp its own token. */
  timestamp?: TimestampCheck
  revocation?: RevocationStatus
  revocationSource: RevocationSource | null
  /** The signer certificate names an OCSP responder or a CRL. */
  hasRevocationService: boolean
  /**
   * The document itself (its DSS, the signature's archived answers) holds a revocation answer for
   * every certificate of the signer's path and of its timestamp's TSA path that needs one (all but
   * the trust anchors): what PAdES B-LT asks, checked rather than assumed.
   */
  validationDataComplete?: boolean
}

export interface CheckContext {
  bytes: Buffer
  anchors: X509Certificate[]
  dss: DssContents
  online: OnlineOptions | null
  /**
   * CRLs the verifier holds first-hand, now: the application CA's own, built from its register
   * in-process. Asked after the document and before the network; reported as 'application-ca' (a
   * current answer from the issuer, not evidence carried by the file, and no request was made).
   */
  issuerCrls: Buffer[]
  /** "Now" for path validation when no timestamp proves an earlier time; defaults to the clock. */
  now?: Date
  /** The verification's certificate reader (certificate-reader.ts); one per document. */
  certificates?: CertificateReader
  /** The digests of what each signature covers, from one pass over `bytes`; without it each range is hashed here. */
  digests?: CoveredDigests
}

export async function checkSignature(signature: FoundSignature, context: CheckContext): Promise<SignatureFacts> {
  const facts: SignatureFacts = { integrity: false, problems: [], essBound: false, revocationSource: null, hasRevocationService: false }
  if (signature.byteRangeProblem || !signature.contents) {
    facts.problems.push(signature.byteRangeProblem ?? 'The signature has no value')
    facts.failure = 'format'
    return facts
  }
  const [, a, b, c] = signature.byteRange as [number, number, number, number]
  const covered = [context.bytes.subarray(0, a), context.bytes.subarray(b, b + c)]
  const coveredDigest = (algorithm: string) => context.digests ? context.digests.of(algorithm, signature.byteRange!) : digest(algorithm, covered)
  let signedData: SignedData
  const pool = [...context.dss.certificates]
  if (signature.type === 'DocTimeStamp' || signature.subFilter === 'ETSI.RFC3161') {
    const token = await checkTimestampToken(signature.contents, covered, context.anchors, pool, context.certificates, coveredDigest)
    facts.timestamp = token
    facts.integrity = token.valid
    if (!token.valid) {
      facts.problems.push(token.problem ?? 'The document timestamp is not valid')
      facts.failure = token.failure ?? 'format'
    }
    facts.signer = token.certificate
    signedData = token.signedData!
    if (!signedData) return facts
  } else {
    try {
      signedData = parseSignedData(signature.contents, context.certificates)
    } catch (error) {
      facts.problems.push(`The signature value cannot be read: ${(error as Error).message}`)
      facts.failure = 'format'
      return facts
    }
    let data = covered
    if (signature.subFilter === 'adbe.pkcs7.sha1') {
      // The signed content is the SHA-1 of the byte ranges, encapsulated.
      const expected = coveredDigest('sha1')
      if (!signedData.eContent?.equals(expected)) {
        facts.problems.push('The document was changed after it was signed: its digest does not match the signed one')
        facts.failure = 'hash'
      }
      data = [signedData.eContent ?? Buffer.alloc(0)]
    } else if (signature.subFilter === 'adbe.x509.rsa_sha1') {
      facts.problems.push('The adbe.x509.rsa_sha1 signature format is not supported')
      facts.failure = 'format'
      return facts
    }
    const check = verifySignedData(signedData, data, pool, data === covered ? coveredDigest : undefined)
    facts.signer = check.signer
    facts.essBound = check.signingCertificateAttribute !== undefined
    facts.integrity = check.valid && facts.problems.length === 0
    if (!check.valid) {
      facts.problems.push(check.problem!)
      facts.failure ??= check.failure
    }
    const token = attribute(signedData.signerInfo.unsignedAttributes, OID.timeStampToken)
    if (token) facts.timestamp = await checkTimestampToken(raw(token), [signedData.signerInfo.signature], context.anchors, pool, context.certificates)
  }
  if (!facts.signer) return facts
  // The path is validated when the signature's own timestamp proves it existed, else now.
  const at = facts.timestamp?.valid && facts.timestamp.time ? new Date(facts.timestamp.time) : context.now ?? new Date()
  facts.chain = await buildChain(facts.signer, [...signedData.certificates, ...pool], context.anchors, { at })
  const identity = certificateIdentity(facts.signer)
  facts.hasRevocationService = identity.ocspUrls.length + identity.crlUrls.length > 0
  const issuer = facts.chain.chain[1]
  if (!issuer) return facts
  const embedded = embeddedRevocation(signedData)
  const answers = (ocsps: Buffer[], crls: Buffer[]) => bestStatus([...ocsps.map((o) => statusFromOcsp(o, facts.signer!, issuer)), ...crls.map((c) => statusFromCrl(c, facts.signer!, issuer))])
  facts.validationDataComplete = documentAnswersFor(facts.chain, context.dss, embedded, signedData.crls)
    && (!facts.timestamp?.valid || documentAnswersFor({ chain: facts.timestamp.chain ?? [], trusted: facts.timestamp.trusted }, context.dss, { ocsps: [], crls: [] }, facts.timestamp.signedData?.crls ?? []))
  const fromDss = answers(context.dss.ocsps, context.dss.crls)
  const fromSignature = answers(embedded.ocsps, [...signedData.crls, ...embedded.crls])
  const fromDocument = bestStatus([fromDss, fromSignature])
  const fromIssuer = facts.chain.trusted ? bestStatus(context.issuerCrls.map((c) => statusFromCrl(c, facts.signer!, issuer))) : undefined
  // The document's answer is evidence from when it was sealed; the issuer's own register, when it
  // now says revoked, is news the document cannot carry (the revocation time is then judged
  // against the signature's proven time).
  if (fromDocument && !(fromIssuer?.status === 'revoked' && fromDocument.status !== 'revoked')) {
    facts.revocation = fromDocument
    facts.revocationSource = fromDocument === fromDss ? 'dss' : 'signature'
  } else if (fromIssuer) {
    facts.revocation = fromIssuer
    facts.revocationSource = 'application-ca'
  } else if (context.online && facts.chain.trusted) {
    const online = await onlineStatus(facts.signer, issuer, context.online)
    if (online) {
      facts.revocation = online
      facts.revocationSource = 'online'
    }
  }
  return facts
}

/**
 * Whether the document answers for every certificate of a trusted path but its anchor: an OCSP
 * response or a CRL from its issuer (bestStatus of what verifies) in the DSS or in the signature.
 * An untrusted path, or one that stops short, has nothing to be complete about.
 */
function documentAnswersFor(path: { chain: X509Certificate[]; trusted: boolean }, dss: DssContents, embedded: { ocsps: Buffer[]; crls: Buffer[] }, signatureCrls: Buffer[]): boolean {
  if (!path.trusted || path.chain.length < 2) return false
  const ocsps = [...dss.ocsps, ...embedded.ocsps]
  const crls = [...dss.crls, ...embedded.crls, ...signatureCrls]
  return path.chain.slice(0, -1).every((certificate, i) => {
    const issuer = path.chain[i + 1]!
    return bestStatus([...ocsps.map((o) => statusFromOcsp(o, certificate, issuer)), ...crls.map((c) => statusFromCrl(c, certificate, issuer))]) !== undefined
  })
}

/** Adobe's revocation-info-archival signed attribute: CRLs and OCSP responses captured at signing. */
function embeddedRevocation(signedData: SignedData): { crls: Buffer[]; ocsps: Buffer[] } {
  const value = attribute(signedData.signerInfo.signedAttributes, OID.adbeRevocationInfo)
  if (!value) return { crls: [], ocsps: [] }
  try {
    const parts = kids(value)
    const crls = tagged(parts, 0)
    const ocsps = tagged(parts, 1)
    return {
      crls: crls ? kids(kids(crls)[0]!).map(raw) : [],
      ocsps: ocsps ? kids(kids(ocsps)[0]!).map(raw) : [],
    }
  } catch {
    return { crls: [], ocsps: [] }
  }
}
