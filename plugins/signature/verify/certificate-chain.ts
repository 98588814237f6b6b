// Path validation (RFC 5280 §6) from a signer's or a timestamp authority's certificate to a trust
// anchor, out of the certificates the document carries (CMS, DSS). pkijs'
// CertificateChainValidationEngine builds the path (names, key identifiers, signatures) and checks
// each certificate's validity at the validation time, that every issuer is a CA (basicConstraints)
// allowed to sign certificates (keyUsage keyCertSign), name chaining, policies and name
// constraints. It does not check pathLenConstraint, critical extensions of the end certificate
// nor extended key usage: those are checked here, on its path. A path that fails any check is not
// trusted, whatever node:crypto's checkIssued() would say (it ignores basicConstraints).
import { createPublicKey, webcrypto, X509Certificate, type KeyObject } from 'node:crypto'
import * as pkijs from 'pkijs'
import { verifySignature } from './algorithms.ts'
import { parseNode } from '../pdf/read-der.ts'
import { certificateExtensions } from '../certificates/x509-fields.ts'

export interface ChainResult {
  /** The certificate first; the anchor last when trusted. Untrusted: as far as issuers were found. */
  chain: X509Certificate[]
  trusted: boolean
  /** Why a path that reached a trust anchor is refused, for a person; undefined when none reached one. */
  problem?: string
}

/** What the end certificate must be allowed to do. */
export type ChainPurpose = 'signing' | 'timestamping'

export interface ChainOptions {
  /** The validation time: the time a timestamp proves, else now. */
  at?: Date
  purpose?: ChainPurpose
}

const MAX_PATH = 10

/**
 * pkijs with node:crypto's one-shot verify under it: WebCrypto's importKey + verify took 3.1 ms per
 * RSA-2048 certificate here, node:crypto 0.04 ms (a 3-certificate path: 3.0 ms -> well under 1 ms).
 * What node:crypto cannot map is left to WebCrypto.
 */
const keys = new WeakMap<pkijs.PublicKeyInfo, KeyObject>()
class NodeVerifyEngine extends pkijs.CryptoEngine {
  override async verifyWithPublicKey(data: BufferSource, signature: { valueBlock: { valueHexView: Uint8Array } }, publicKeyInfo: pkijs.PublicKeyInfo, signatureAlgorithm: pkijs.AlgorithmIdentifier, shaAlgorithm?: string): Promise<boolean> {
    if (shaAlgorithm) return super.verifyWithPublicKey(data, signature as never, publicKeyInfo, signatureAlgorithm, shaAlgorithm)
    try {
      let key = keys.get(publicKeyInfo)
      if (!key) keys.set(publicKeyInfo, key = createPublicKey({ key: Buffer.from(publicKeyInfo.toSchema().toBER()), format: 'der', type: 'spki' }))
      const algorithm = parseNode(Buffer.from(signatureAlgorithm.toSchema().toBER()))
      const bytes = ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data)
      return verifySignature(algorithm, bytes, key, Buffer.from(signature.valueBlock.valueHexView))
    } catch {
      return false
    }
  }
}
const crypto = new NodeVerifyEngine({ name: 'node', crypto: webcrypto as unknown as Crypto })

const OID = {
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  timeStamping: '1.3.6.1.5.5.7.3.8',
}

/**
 * Critical extensions a path may carry: those the engine or this module process, and those RFC 5280
 * says must not be critical but whose meaning we read anyway. Any other critical one refuses the
 * certificate (RFC 5280 §6.1.4 (o)).
 */
const UNDERSTOOD = new Set([
  OID.basicConstraints, OID.keyUsage, OID.extKeyUsage,
  '2.5.29.17', // subjectAltName
  '2.5.29.30', // nameConstraints
  '2.5.29.32', // certificatePolicies
  '2.5.29.33', // policyMappings
  '2.5.29.36', // policyConstraints
  '2.5.29.54', // inhibitAnyPolicy
  '2.5.29.14', // subjectKeyIdentifier
  '2.5.29.35', // authorityKeyIdentifier
  '2.5.29.31', // cRLDistributionPoints
  '1.3.6.1.5.5.7.1.1', // authorityInfoAccess
  '1.3.6.1.5.5.7.48.1.5', // id-pkix-ocsp-nocheck
])

/**
 * An issuer's signature on a certificate is checked by the engine for every path through it: the
 * CA's on each signer, for each signature of a document and each verification. A parse stands for
 * exactly one DER (pkijsCertificate keeps one per fingerprint), so the answer for a (certificate,
 * issuer) pair of parses is theirs for good; it is kept with them, for this module's crypto only.
 */
const issuerChecks = new WeakMap<pkijs.Certificate, WeakMap<pkijs.Certificate, boolean>>()

class IssuerCheckedCertificate extends pkijs.Certificate {
  override async verify(issuer?: pkijs.Certificate, engine?: pkijs.ICryptoEngine): Promise<boolean> {
    if (engine !== crypto) return super.verify(issuer, engine)
    // Without an issuer pkijs checks a self-issued certificate with its own key: the same as itself as issuer.
    const by = issuer ?? this
    const known = issuerChecks.get(this)?.get(by)
    if (known !== undefined) return known
    const verified = await super.verify(issuer, engine)
    let byIssuer = issuerChecks.get(this)
    if (!byIssuer) issuerChecks.set(this, byIssuer = new WeakMap())
    byIssuer.set(by, verified)
    return verified
  }
}
// pkijs names the class in its parse errors, which reports quote.
Object.defineProperty(IssuerCheckedCertificate, 'name', { value: pkijs.Certificate.name })

// Parsing with pkijs costs ~0.5 ms a certificate; the same CA and TSA certificates come back in
// every signature and request, so parses are kept (bounded) by fingerprint.
const parsed = new Map<string, pkijs.Certificate>()
const fingerprints = new WeakMap<pkijs.Certificate, string>()
const PARSED_LIMIT = 512

export function pkijsCertificate(certificate: X509Certificate): pkijs.Certificate {
  const key = certificate.fingerprint256
  let known = parsed.get(key)
  if (!known) {
    known = IssuerCheckedCertificate.fromBER(new Uint8Array(certificate.raw))
    fingerprints.set(known, key)
    if (parsed.size >= PARSED_LIMIT) parsed.delete(parsed.keys().next().value!)
    parsed.set(key, known)
  }
  return known
}

/** `child`'s signature verifies with `issuer`'s key and the names chain (no judgement of the issuer). */
export function issuedBy(child: X509Certificate, issuer: X509Certificate): boolean {
  try {
    return child.checkIssued(issuer) && child.verify(issuer.publicKey)
  } catch {
    return false
  }
}

export async function buildChain(leaf: X509Certificate, pool: X509Certificate[], anchors: X509Certificate[], options: ChainOptions = {}): Promise<ChainResult> {
  try {
    return await validatePath(leaf, pool, anchors, options)
  } catch (error) {
    // A certificate node:crypto reads but pkijs cannot (attacker input): no path, said so.
    return { chain: [leaf], trusted: false, problem: `A certificate of the chain cannot be read: ${(error as Error).message}` }
  }
}

async function validatePath(leaf: X509Certificate, pool: X509Certificate[], anchors: X509Certificate[], options: ChainOptions): Promise<ChainResult> {
  if (anchors.some((anchor) => anchor.fingerprint256 === leaf.fingerprint256)) return { chain: [leaf], trusted: true }
  const anchorPrints = new Set(anchors.map((anchor) => anchor.fingerprint256))
  const intermediates = dedupe(pool).filter((c) => c.fingerprint256 !== leaf.fingerprint256 && !anchorPrints.has(c.fingerprint256))
  const byPrint = new Map([...intermediates, ...anchors, leaf].map((c) => [c.fingerprint256, c]))
  const checkDate = validationDate(leaf, options.at ?? new Date())
  const trustedCerts = dedupe(anchors).map(pkijsCertificate)
  // The engine takes the last certificate as the one to validate.
  const certs = [...intermediates, leaf].map(pkijsCertificate)
  const key = acceptedPathKey(trustedCerts, certs, checkDate, options.purpose)
  const accepted = key !== undefined ? acceptedPaths.get(key) : undefined
  if (accepted) return { chain: accepted.map((print) => byPrint.get(print)!), trusted: true }
  const engine = new pkijs.CertificateChainValidationEngine({ trustedCerts, certs, checkDate })
  let result: Awaited<ReturnType<pkijs.CertificateChainValidationEngine['verify']>>
  try {
    result = await engine.verify({}, crypto)
  } catch (error) {
    result = { result: false, resultCode: -1, resultMessage: (error as Error).message }
  }
  if (!result.result || !result.certificatePath) {
    const chain = await partialChain(leaf, engine, byPrint)
    return { chain, trusted: false, problem: whyNot(chain, anchorPrints, checkDate) }
  }
  const chain = result.certificatePath.map((c) => byPrint.get(fingerprintOf(c))!)
  const problem = pathLengthProblem(result.certificatePath, chain) ?? criticalExtensionProblem(result.certificatePath, chain) ?? purposeProblem(leaf, options.purpose)
  if (problem) return { chain, trusted: false, problem }
  if (key !== undefined) rememberAcceptedPath(key, chain)
  return { chain, trusted: true }
}

/**
 * Paths accepted before, by what the acceptance is a function of: the anchors and the candidate
 * certificates in the order the engine is given them (fingerprints: every extension, name and
 * signature the engine reads is in the DER), where the validation time falls in each one's validity
 * (the only use the engine makes of the time: compared as it compares them), and the purpose. A
 * time outside any certificate's validity is another key, so an acceptance at one time never stands
 * for a time the engine would refuse. Refusals are not kept (their sentences name the time). The
 * value is the accepted path's fingerprints, handed back as the caller's own certificates.
 */
const acceptedPaths = new Map<string, string[]>()
const ACCEPTED_PATHS_LIMIT = 256
/** A path's candidates are a handful; a pool of many (a crafted DSS) is validated, not remembered. */
const ACCEPTED_PATH_CANDIDATES = 32

function acceptedPathKey(trusted: pkijs.Certificate[], certs: pkijs.Certificate[], at: Date, purpose: ChainPurpose | undefined): string | undefined {
  if (trusted.length + certs.length > ACCEPTED_PATH_CANDIDATES) return undefined
  const part = (cert: pkijs.Certificate) => `${fingerprintOf(cert)}${cert.notBefore.value > at ? '<' : cert.notAfter.value < at ? '>' : '='}`
  return `${purpose ?? ''}|${trusted.map(part).join(',')}|${certs.map(part).join(',')}`
}

function rememberAcceptedPath(key: string, chain: X509Certificate[]): void {
  if (acceptedPaths.size >= ACCEPTED_PATHS_LIMIT) acceptedPaths.delete(acceptedPaths.keys().next().value!)
  acceptedPaths.set(key, chain.map((certificate) => certificate.fingerprint256))
}

/**
 * The engine checks every certificate's validity at the time it is given. When the validation time
 * lies outside the end certificate's own validity, the path is checked at the nearest moment inside
 * it, so the report can name the expiry (judge-signature.ts judges it against proven time) instead
 * of calling a well-formed path untrusted.
 */
function validationDate(leaf: X509Certificate, at: Date): Date {
  const from = new Date(leaf.validFrom)
  const to = new Date(leaf.validTo)
  return at < from ? from : at > to ? to : at
}

/** The issuers the engine finds, one after another, for a report on a path it refused. */
async function partialChain(leaf: X509Certificate, engine: pkijs.CertificateChainValidationEngine, byPrint: Map<string, X509Certificate>): Promise<X509Certificate[]> {
  const chain = [leaf]
  let current = pkijsCertificate(leaf)
  while (chain.length < MAX_PATH) {
    const issuers = await engine.findIssuer(current, engine, crypto).catch(() => [])
    const next = issuers.map((c) => byPrint.get(fingerprintOf(c))).find((c) => c && !chain.includes(c))
    if (!next) break
    chain.push(next)
    current = pkijsCertificate(next)
  }
  return chain
}

/**
 * A sentence naming the certificate that breaks a path the engine refused (it answers with one
 * code for several causes); undefined when the issuers found never reach an anchor.
 */
function whyNot(chain: X509Certificate[], anchors: Set<string>, at: Date): string | undefined {
  if (!anchors.has(chain.at(-1)!.fingerprint256)) return undefined
  for (const [i, issuer] of chain.entries()) {
    if (i === 0) continue
    const cert = pkijsCertificate(issuer)
    if (!isCa(cert)) return `${name(issuer)} issued the certificate of ${subjectOf(chain[i - 1]!)} but is not a certificate authority`
    const usage = keyUsageBits(cert)
    if (usage && !usage.keyCertSign) return `${name(issuer)} issued the certificate of ${subjectOf(chain[i - 1]!)} but its key usage does not allow signing certificates`
  }
  const outside = outOfValidity(chain, at)
  if (outside) return `${name(outside)} is not valid at ${at.toISOString()} (valid ${iso(outside.validFrom)} to ${iso(outside.validTo)})`
  const critical = criticalExtensionProblem(chain.map(pkijsCertificate), chain)
  return critical ?? 'The certificate chain does not pass path validation (RFC 5280)'
}

/** RFC 5280 §6.1.4 (l)-(m): a CA's pathLenConstraint bounds the non-self-issued CAs below it. */
function pathLengthProblem(path: pkijs.Certificate[], chain: X509Certificate[]): string | undefined {
  let below = 0
  for (let i = 1; i < path.length; i++) {
    const constraint = basicConstraints(path[i]!)?.pathLenConstraint
    if (typeof constraint === 'number' && below > constraint) {
      return `${name(chain[i]!)} allows ${constraint} certificate authorit${constraint === 1 ? 'y' : 'ies'} below it, the chain has ${below}`
    }
    if (!selfIssued(path[i]!)) below++
  }
  return undefined
}

function criticalExtensionProblem(path: pkijs.Certificate[], chain: X509Certificate[]): string | undefined {
  for (const [i, cert] of path.entries()) {
    if (!(cert.extensions ?? []).some((e) => e.critical && !UNDERSTOOD.has(e.extnID))) continue
    // Named from read-der's reading: pkijs prints an arc past 2^56 (a UUID under 2.25) in hex.
    const unknown = certificateExtensions(Buffer.from(chain[i]!.raw)).find((e) => e.critical && !UNDERSTOOD.has(e.oid))
    if (unknown) return `${name(chain[i]!)} carries a critical extension this verifier does not understand (${unknown.oid})`
  }
  return undefined
}

/** RFC 3161 §2.3: a TSA's certificate has one extended key usage, timeStamping, marked critical (openssl ts -verify agrees). */
export function purposeProblem(certificate: X509Certificate, purpose: ChainPurpose | undefined): string | undefined {
  if (purpose !== 'timestamping') return undefined
  let cert: pkijs.Certificate
  try {
    cert = pkijsCertificate(certificate)
  } catch (error) {
    return `The timestamp authority's certificate cannot be read: ${(error as Error).message}`
  }
  const eku = cert.extensions?.find((e) => e.extnID === OID.extKeyUsage)
  const purposes = (eku?.parsedValue as pkijs.ExtKeyUsage | undefined)?.keyPurposes ?? []
  if (!eku || !eku.critical || purposes.length !== 1 || purposes[0] !== OID.timeStamping) {
    return "The timestamp authority's certificate is not one for timestamps (it needs the critical extended key usage timeStamping, alone)"
  }
  return undefined
}

function basicConstraints(cert: pkijs.Certificate): pkijs.BasicConstraints | undefined {
  return cert.extensions?.find((e) => e.extnID === OID.basicConstraints)?.parsedValue as pkijs.BasicConstraints | undefined
}

function isCa(cert: pkijs.Certificate): boolean {
  return basicConstraints(cert)?.cA === true
}

/** keyUsage's bits that matter to issuers; undefined without the extension (any use allowed). */
export function keyUsageBits(cert: pkijs.Certificate): { keyCertSign: boolean; cRLSign: boolean } | undefined {
  const extension = cert.extensions?.find((e) => e.extnID === OID.keyUsage)
  if (!extension) return undefined
  const bits = (extension.parsedValue as { valueBlock?: { valueHexView?: Uint8Array } } | undefined)?.valueBlock?.valueHexView
  const first = bits?.[0] ?? 0
  return { keyCertSign: (first & 0x04) !== 0, cRLSign: (first & 0x02) !== 0 }
}

function selfIssued(cert: pkijs.Certificate): boolean {
  return cert.subject.isEqual(cert.issuer)
}

/** Every pkijs certificate here was parsed by pkijsCertificate(). */
function fingerprintOf(cert: pkijs.Certificate): string {
  return fingerprints.get(cert)!
}

function name(certificate: X509Certificate): string {
  return `The certificate of ${subjectOf(certificate)}`
}

function iso(text: string): string {
  return new Date(text).toISOString()
}

function subjectOf(certificate: X509Certificate): string {
  return certificate.subject.split('\n').filter(Boolean).join(', ')
}

function dedupe(certificates: X509Certificate[]): X509Certificate[] {
  const seen = new Set<string>()
  return certificates.filter((c) => !seen.has(c.fingerprint256) && seen.add(c.fingerprint256))
}

/** The first certificate of the chain not valid at `at`. */
export function outOfValidity(chain: X509Certificate[], at: Date): X509Certificate | undefined {
  return chain.find((certificate) => at < new Date(certificate.validFrom) || at > new Date(certificate.validTo))
}
