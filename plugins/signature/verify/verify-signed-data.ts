// The cryptographic check of one CMS signer: the message digest attribute against the data,
// the signature against the signed attributes, and ESS signing-certificate(-v2) against the
// certificate that verified it.
import type { X509Certificate } from 'node:crypto'
import { digest, digestName, verifySignature } from './algorithms.ts'
import { content, kids, octets, type Node } from '../pdf/read-der.ts'
import { attribute, findSignerCertificate, OID, type SignedData } from './cms.ts'

export type SignedDataFailure = 'no-signer' | 'algorithm' | 'hash' | 'signing-certificate' | 'crypto'

export interface SignedDataCheck {
  valid: boolean
  /** Why not, for a person; undefined when valid. */
  problem?: string
  /** Why not, for a program (etsi-validation.ts): which check failed. */
  failure?: SignedDataFailure
  signer?: X509Certificate
  /** 'v2', 'v1' when an ESS signing-certificate attribute binds the certificate; undefined when none. */
  signingCertificateAttribute?: 'v1' | 'v2'
}

/**
 * `data` is the signed content (the PDF's byte ranges, or a token's TSTInfo), in parts;
 * `digestOf`, when given, gives its digest by algorithm without reading it (covered-digests.ts).
 */
export function verifySignedData(signedData: SignedData, data: Buffer[], extraCertificates: X509Certificate[] = [], digestOf?: (algorithm: string) => Buffer): SignedDataCheck {
  const { signerInfo } = signedData
  const signer = findSignerCertificate(signerInfo, [...signedData.certificates, ...extraCertificates])
  if (!signer) return { valid: false, failure: 'no-signer', problem: "The signer's certificate is not in the signature" }
  let hashName: string
  try {
    hashName = digestName(signerInfo.digestAlgorithm)
  } catch (error) {
    return { valid: false, signer, failure: 'algorithm', problem: (error as Error).message }
  }
  const contentDigest = digestOf ? digestOf(hashName) : digest(hashName, data)
  let signedBytes: Buffer
  let bound: SignedDataCheck['signingCertificateAttribute']
  if (signerInfo.signedAttributesDer) {
    const messageDigest = attribute(signerInfo.signedAttributes, OID.messageDigest)
    if (!messageDigest || !content(messageDigest).equals(contentDigest)) {
      return { valid: false, signer, failure: 'hash', problem: 'The document was changed after it was signed: its digest does not match the signed one' }
    }
    const v2 = attribute(signerInfo.signedAttributes, OID.signingCertificateV2)
    const v1 = attribute(signerInfo.signedAttributes, OID.signingCertificate)
    if (v2 || v1) {
      if (!essCertMatches(v2 ?? v1!, signer, v2 ? 'sha256' : 'sha1', Boolean(v2))) {
        return { valid: false, signer, failure: 'signing-certificate', problem: 'The signing-certificate attribute names a different certificate than the one that signed' }
      }
      bound = v2 ? 'v2' : 'v1'
    }
    signedBytes = signerInfo.signedAttributesDer
  } else {
    signedBytes = Buffer.concat(data)
  }
  let ok: boolean
  try {
    ok = verifySignature(signerInfo.signatureAlgorithm, signedBytes, signer.publicKey, signerInfo.signature, hashName)
  } catch (error) {
    return { valid: false, signer, failure: 'algorithm', problem: (error as Error).message }
  }
  if (!ok) return { valid: false, signer, failure: 'crypto', problem: "The signature value does not verify with the signer's certificate" }
  return { valid: true, signer, signingCertificateAttribute: bound }
}

/** SigningCertificate(V2) ::= SEQUENCE { certs SEQUENCE OF ESSCertID(v2), ... }; the first names the signer. */
function essCertMatches(value: Node, signer: X509Certificate, defaultHash: string, isV2: boolean): boolean {
  const first = kids(kids(value)[0]!)[0]
  if (!first) return false
  const parts = kids(first)
  // ESSCertIDv2 ::= SEQUENCE { hashAlgorithm DEFAULT sha256, certHash OCTET STRING, issuerSerial OPTIONAL }
  const hasAlgorithm = isV2 && parts[0]?.tag === 0x30
  const hashName = hasAlgorithm ? digestName(parts[0]!) : defaultHash
  const certHash = octets(parts[hasAlgorithm ? 1 : 0]!)
  return certHash.equals(digest(hashName, [signer.raw]))
}
