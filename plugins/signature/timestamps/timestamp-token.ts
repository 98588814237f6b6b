// Checks an RFC 3161 TimeStampToken (a CMS SignedData over a TSTInfo) before it goes into a
// signature: that it answers our query (message imprint and nonce), that its signature verifies
// with the certificate it carries, that this certificate is a TSA's (critical extended key usage
// timeStamping, RFC 3161 section 2.3) valid at the time stamped, and that the ESS
// signing-certificate attribute names that same certificate. Whether the TSA is trusted is the
// configuration's choice (its URL was configured); a verifier checks that against its anchors.
import { createHash, timingSafeEqual, verify, X509Certificate } from 'node:crypto'
import { children, contentOf, encodingOf, expectTag, readOid, readRoot, readSmallInteger, readTime, readTlv, type Tlv } from '../pdf/der.ts'
import { certificateExtensions, extendedKeyUsage, issuerAndSerial, OID_TIME_STAMPING } from '../certificates/x509-fields.ts'
import { OID_SHA256 } from './timestamp-query.ts'

const OID = {
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificate: '1.2.840.113549.1.9.16.2.12',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  subjectKeyIdentifier: '2.5.29.14',
} as const

const DIGESTS: Record<string, string> = {
  [OID_SHA256]: 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
}
/** Signature algorithms: the hash comes from the SignerInfo's digest algorithm when null. */
const SIGNATURES: Record<string, string | null> = {
  '1.2.840.113549.1.1.1': null, // rsaEncryption
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
}

export interface VerifiedTimestamp {
  genTime: Date
  /** DER of the TSA certificate that signed the token. */
  signer: Buffer
}

export class TimestampTokenError extends Error {}

const fail = (message: string): never => {
  throw new TimestampTokenError(message)
}

export function verifyTimestampToken(token: Buffer, expected: { imprint: Buffer; nonce: Buffer }): VerifiedTimestamp {
  const [contentType, wrapped] = children(token, expectTag(readRoot(token), 0x30, 'a ContentInfo'))
  if (readOid(token, contentType!) !== OID.signedData) fail('The token is not a CMS SignedData')
  const signedData = expectTag(children(token, expectTag(wrapped, 0xa0, 'the SignedData'))[0], 0x30, 'the SignedData')
  const fields = children(token, signedData)
  const encapsulated = expectTag(fields[2], 0x30, 'the encapsulated content')
  const [eContentType, eContentWrapper] = children(token, encapsulated)
  if (readOid(token, eContentType!) !== OID.tstInfo) fail('The token does not hold a TSTInfo')
  const eContent = expectTag(children(token, expectTag(eContentWrapper, 0xa0, 'the TSTInfo'))[0], 0x04, 'the TSTInfo octets')
  const tstInfo = contentOf(token, eContent)
  const certificates = fields.find((f) => f.tag === 0xa0)
  const signerInfos = children(token, expectTag(fields.at(-1), 0x31, 'the signer infos'))
  if (signerInfos.length !== 1) fail('A timestamp token has exactly one signer')

  const info = readTstInfo(tstInfo)
  if (info.hashAlgorithm !== OID_SHA256 || !equal(info.imprint, expected.imprint)) fail('The token stamps another message imprint than asked')
  if (!info.nonce || !equal(info.nonce, expected.nonce)) fail('The token answers another nonce than asked')

  const signerInfo = children(token, signerInfos[0]!)
  const candidates = certificates ? children(token, certificates).filter((c) => c.tag === 0x30).map((c) => Buffer.from(encodingOf(token, c))) : []
  const signer = findSigner(token, signerInfo[1]!, candidates) ?? fail('The token does not carry the certificate that signed it')
  const digestName = DIGESTS[readOid(token, children(token, expectTag(signerInfo[2], 0x30, 'a digest algorithm'))[0]!)] ?? fail('The token uses an unsupported digest')
  const signedAttributes = expectTag(signerInfo[3], 0xa0, 'signed attributes')
  const attributes = readAttributes(token, signedAttributes)
  const messageDigest = attributes.get(OID.messageDigest) ?? fail('The token has no message-digest attribute')
  if (!equal(contentOf(token, expectTag(messageDigest, 0x04, 'a digest')), createHash(digestName).update(tstInfo).digest())) fail('The token\'s message digest does not match its TSTInfo')
  const attributeType = attributes.get(OID.contentType) ?? fail('The token has no content-type attribute')
  if (readOid(token, attributeType) !== OID.tstInfo) fail('The token\'s content-type attribute is not TSTInfo')
  assertSigningCertificate(token, attributes, signer)

  const algorithm = SIGNATURES[readOid(token, children(token, expectTag(signerInfo[4], 0x30, 'a signature algorithm'))[0]!)]
  if (algorithm === undefined) fail('The token uses an unsupported signature algorithm')
  // The signature covers the attributes as a SET OF (tag 0x31), not as the [0] they are sent in.
  const signedBytes = Buffer.concat([Buffer.from([0x31]), token.subarray(signedAttributes.start + 1, signedAttributes.end)])
  const signatureValue = contentOf(token, expectTag(signerInfo[5], 0x04, 'a signature value'))
  const certificate = new X509Certificate(signer)
  if (!verify(algorithm ?? digestName, signedBytes, certificate.publicKey, signatureValue)) fail('The token\'s signature does not verify with its certificate')

  const usage = extendedKeyUsage(signer)
  if (!usage?.critical || !usage.purposes.includes(OID_TIME_STAMPING)) fail('The token\'s certificate is not a TSA\'s (no critical extended key usage timeStamping)')
  if (info.genTime < new Date(certificate.validFrom) || info.genTime > new Date(certificate.validTo)) fail('The TSA certificate was not valid at the time stamped')
  return { genTime: info.genTime, signer }
}

function readTstInfo(der: Buffer): { hashAlgorithm: string; imprint: Buffer; genTime: Date; nonce: Buffer | null } {
  const fields = children(der, expectTag(readRoot(der), 0x30, 'a TSTInfo'))
  if (readSmallInteger(der, fields[0]!) !== 1) fail('Unsupported TSTInfo version')
  const [algorithm, hashed] = children(der, expectTag(fields[2], 0x30, 'a message imprint'))
  const hashAlgorithm = readOid(der, children(der, expectTag(algorithm, 0x30, 'a hash algorithm'))[0]!)
  const genTime = readTime(der, expectTag(fields[4], 0x18, 'the GeneralizedTime genTime'))
  // After genTime: accuracy (SEQUENCE), ordering (BOOLEAN), then the nonce, the first INTEGER.
  const nonce = fields.slice(5).find((f) => f.tag === 0x02)
  return { hashAlgorithm, imprint: contentOf(der, expectTag(hashed, 0x04, 'a hashed message')), genTime, nonce: nonce ? magnitude(contentOf(der, nonce)) : null }
}

function readAttributes(der: Buffer, set: Tlv): Map<string, Tlv> {
  const result = new Map<string, Tlv>()
  for (const attribute of children(der, set)) {
    const [type, values] = children(der, attribute)
    const first = children(der, expectTag(values, 0x31, 'attribute values'))[0]
    if (first) result.set(readOid(der, type!), first)
  }
  return result
}

/** SignerIdentifier: issuerAndSerialNumber, or [0] subjectKeyIdentifier. */
function findSigner(der: Buffer, sid: Tlv, certificates: Buffer[]): Buffer | undefined {
  if (sid.tag === 0x80) {
    const keyId = contentOf(der, sid)
    return certificates.find((cert) => {
      const extension = certificateExtensions(cert).find((e) => e.oid === OID.subjectKeyIdentifier)
      return extension ? equal(contentOf(extension.value, readTlv(extension.value, 0)), keyId) : false
    })
  }
  const [issuer, serial] = children(der, expectTag(sid, 0x30, 'a signer identifier'))
  return certificates.find((cert) => {
    const own = issuerAndSerial(cert)
    return equal(own.issuer, encodingOf(der, issuer!)) && equal(own.serial, encodingOf(der, serial!))
  })
}

/** ESS signing-certificate (v1: SHA-1) or -v2 (SHA-256 by default): its first hash must be the signer's. */
function assertSigningCertificate(der: Buffer, attributes: Map<string, Tlv>, signer: Buffer): void {
  const v2 = attributes.get(OID.signingCertificateV2)
  const v1 = attributes.get(OID.signingCertificate)
  const value = v2 ?? v1 ?? fail('The token names no signing certificate (ESS)')
  const certs = expectTag(children(der, value)[0], 0x30, 'ESS certificate ids')
  const first = children(der, expectTag(children(der, certs)[0], 0x30, 'an ESS certificate id'))
  let hashName = v2 ? 'sha256' : 'sha1'
  let hash = first[0]!
  if (v2 && hash.tag === 0x30) {
    hashName = DIGESTS[readOid(der, children(der, hash)[0]!)] ?? fail('The ESS certificate id uses an unsupported hash')
    hash = first[1]!
  }
  if (!equal(contentOf(der, expectTag(hash, 0x04, 'a certificate hash')), createHash(hashName).update(signer).digest())) {
    fail('The token\'s ESS signing certificate is not the certificate that signed it')
  }
}

function magnitude(bytes: Buffer): Buffer {
  let start = 0
  while (start < bytes.length - 1 && bytes[start] === 0) start++
  return bytes.subarray(start)
}

function equal(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b)
}
