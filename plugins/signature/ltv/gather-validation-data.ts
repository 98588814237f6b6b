// The main thread's half of B-LT: for every certificate a document's signatures and timestamps
// need, its chain and a revocation answer. The application CA answers in-process from its
// register (no HTTP to ourselves); another CA's OCSP responder or CRL is asked only when its chain
// ends at a configured trust anchor (the addresses then come from a CA we trust, not from whoever
// made the certificate), within a time and size bound. What cannot be obtained is reported in
// `missing`, never invented.
import { createHash, X509Certificate } from 'node:crypto'
import { buildChain, issuedBy } from '../verify/certificate-chain.ts'
import { certificateIdentity, nameText } from '../verify/certificate-identity.ts'
import { fetchCrl, fetchOcspAnswer, isHttp, ocspRequest, ocspRequestFor, type OnlineOptions } from '../verify/online-revocation.ts'
import { MAX_CERT_IDS } from '../pki/parse-ocsp-request.ts'
import { statusFromCrl, statusFromOcsp } from '../verify/revocation-data.ts'
import type { SignatureNeeds } from './collect-validation-needs.ts'
import type { ValidationData } from './validation-data.ts'

export interface RevocationSources {
  /** The application CA's certificate (DER): what it issued is answered by `ocsp` and `crl`. */
  applicationCa: Uint8Array
  ocsp(request: Buffer): Promise<Buffer>
  crl(): Promise<Buffer>
  /** Other CAs whose services may be asked (TRUST_ANCHORS). */
  trustAnchors: X509Certificate[]
  /** Bounds for asking another CA; null: never go online. */
  online: OnlineOptions | null
}

export interface GatheredValidationData extends ValidationData {
  /** One sentence per certificate whose status could not be obtained. */
  missing: string[]
}

export async function gatherValidationData(needs: SignatureNeeds[], sources: RevocationSources): Promise<GatheredValidationData> {
  const ca = new X509Certificate(sources.applicationCa)
  const anchors = [ca, ...sources.trustAnchors]
  const pool = dedupe([...needs.flatMap((need) => need.certificates.map((der) => new X509Certificate(der))), ...anchors])
  const data: GatheredValidationData = { certificates: [], ocsps: [], crls: [], vri: [], missing: [] }
  const report = (problem: string) => {
    if (!data.missing.includes(problem)) data.missing.push(problem)
  }
  const certIndex = indexer(data.certificates)
  const ocspIndex = indexer(data.ocsps)
  const crlIndex = indexer(data.crls)

  // Every certificate to vouch for, with its issuer, once.
  const chains = await Promise.all(needs.map((need) => Promise.all(need.certificates.map((der) => buildChain(new X509Certificate(der), pool, anchors)))))
  const toCheck = new Map<string, { certificate: X509Certificate; issuer: X509Certificate; trusted: boolean }>()
  for (const { chain, trusted } of chains.flat()) {
    for (const [i, certificate] of chain.entries()) {
      // A root vouches for itself.
      if (issuedBy(certificate, certificate)) continue
      const issuer = chain[i + 1]
      if (!issuer) report(`${nameText(certificate.subject)}: its issuer's certificate is neither in the document nor a trust anchor`)
      else toCheck.set(certificate.fingerprint256, { certificate, issuer, trusted })
    }
  }

  const answers = new Map<string, { ocsp?: number; crl?: number }>()
  const ours = [...toCheck.values()].filter((c) => c.issuer.fingerprint256 === ca.fingerprint256)
  if (ours.length > 0) {
    // The CA answers up to 20 certificates with one signed response (and its CRL covers them all).
    // Both answers go in: validators differ in which they prefer. It signs them itself: no responder certificate.
    const crl = await sources.crl()
    for (let at = 0; at < ours.length; at += MAX_CERT_IDS) {
      const batch = ours.slice(at, at + MAX_CERT_IDS)
      const answer = await sources.ocsp(ocspRequestFor(batch.map(({ certificate, issuer }) => [certificate, issuer])))
      for (const { certificate, issuer } of batch) {
        const found = {
          ...(statusFromOcsp(answer, certificate, issuer) ? { ocsp: ocspIndex(answer) } : {}),
          ...(statusFromCrl(crl, certificate, issuer) ? { crl: crlIndex(crl) } : {}),
        }
        if (found.ocsp === undefined) report(`The application CA has no record of ${nameText(certificate.subject)}`)
        answers.set(certificate.fingerprint256, found)
      }
    }
  }
  for (const { certificate, issuer, trusted } of toCheck.values()) {
    if (answers.has(certificate.fingerprint256)) continue
    let found: { ocsp?: number; crl?: number } = {}
    if (!trusted || !sources.online) {
      report(`${nameText(certificate.subject)}: ${trusted ? 'going online is off' : 'its chain does not end at a trust anchor, so its services were not asked'}`)
    } else {
      const fetched = await askIssuerServices(certificate, issuer, sources.online)
      if (fetched.ocsp) found = { ocsp: ocspIndex(fetched.ocsp) }
      else if (fetched.crl) found = { crl: crlIndex(fetched.crl) }
      else report(`${nameText(certificate.subject)}: neither its OCSP responder nor its CRL gave a usable answer`)
    }
    answers.set(certificate.fingerprint256, found)
  }

  for (const [n, need] of needs.entries()) {
    const entry = { certificates: new Set<number>(), ocsps: new Set<number>(), crls: new Set<number>() }
    for (const { chain } of chains[n]!) {
      for (const certificate of chain) {
        entry.certificates.add(certIndex(Buffer.from(certificate.raw)))
        const answer = answers.get(certificate.fingerprint256)
        if (answer?.ocsp !== undefined) entry.ocsps.add(answer.ocsp)
        if (answer?.crl !== undefined) entry.crls.add(answer.crl)
      }
    }
    data.vri.push({ key: need.vriKey, certificates: [...entry.certificates], ocsps: [...entry.ocsps], crls: [...entry.crls] })
  }
  return data
}

async function askIssuerServices(certificate: X509Certificate, issuer: X509Certificate, online: OnlineOptions): Promise<{ ocsp?: Buffer; crl?: Buffer }> {
  const identity = certificateIdentity(certificate)
  for (const url of identity.ocspUrls.filter(isHttp)) {
    const answer = await fetchOcspAnswer(url, ocspRequest(certificate, issuer), online)
    if (answer && statusFromOcsp(answer, certificate, issuer)) return { ocsp: answer }
  }
  for (const url of identity.crlUrls.filter(isHttp)) {
    const answer = await fetchCrl(url, online)
    if (answer && statusFromCrl(answer, certificate, issuer)) return { crl: answer }
  }
  return {}
}

/** Adds a value once (by content) and answers its index. */
function indexer(values: Uint8Array[]): (value: Buffer) => number {
  const seen = new Map<string, number>()
  return (value) => {
    const key = createHash('sha256').update(value).digest('hex')
    let index = seen.get(key)
    if (index === undefined) {
      index = values.push(new Uint8Array(value)) - 1
      seen.set(key, index)
    }
    return index
  }
}

function dedupe(certificates: X509Certificate[]): X509Certificate[] {
  const seen = new Set<string>()
  return certificates.filter((c) => !seen.has(c.fingerprint256) && seen.add(c.fingerprint256))
}
