// Checks an RFC 3161 TimeStampToken (a CMS SignedData over a TSTInfo) before it goes into a
// signature: that it answers our query (message imprint and nonce), that its signature verifies
// with the certificate it carries, that this certificate is a TSA's (critical extended key usage
// timeStamping, RFC 3161 section 2.3) valid at the time stamped, and that the ESS
// signing-certificate attribute names that same certificate. Whether the TSA is trusted is the
// configuration's choice (its URL was configured); a verifier checks that against its anchors.
import { createHash, timingSafeEqual, verify, X509Certificate } from 'node:crypto'
import { content, expectTag, kids, oidOf, parseNode, parseRoot, raw, smallIntegerOf, timeOf, type Node } from '../pdf/read-der.ts'
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
  const [contentType, wrapped] = kids(expectTag(parseRoot(token, { der: true }), 0x30, 'a ContentInfo'))
  if (oidOf(contentType!) !== OID.signedData) fail('The token is not a CMS SignedData')
  const signedData = expectTag(kids(expectTag(wrapped, 0xa0, 'the SignedData'))[0], 0x30, 'the SignedData')
  const fields = kids(signedData)
  const encapsulated = expectTag(fields[2], 0x30, 'the encapsulated content')
  const [eContentType, eContentWrapper] = kids(encapsulated)
  if (oidOf(eContentType!) !== OID.tstInfo) fail('The token does not hold a TSTInfo')
  const eContent = expectTag(kids(expectTag(eContentWrapper, 0xa0, 'the TSTInfo'))[0], 0x04, 'the TSTInfo octets')
  const tstInfo = content(eContent)
  const certificates = fields.find((f) => f.tag === 0xa0)
  const signerInfos = kids(expectTag(fields.at(-1), 0x31, 'the signer infos'))
  if (signerInfos.length !== 1) fail('A timestamp token has exactly one signer')

  const info = readTstInfo(tstInfo)
  if (info.hashAlgorithm !== OID_SHA256 || !equal(info.imprint, expected.imprint)) fail('The token stamps another message imprint than asked')
  if (!info.nonce || !equal(info.nonce, expected.nonce)) fail('The token answers another nonce than asked')

  const signerInfo = kids(signerInfos[0]!)
  const candidates = certificates ? kids(certificates).filter((c) => c.tag === 0x30).map((c) => Buffer.from(raw(c))) : []
  const signer = findSigner(signerInfo[1]!, candidates) ?? fail('The token does not carry the certificate that signed it')
  const digestName = DIGESTS[oidOf(kids(expectTag(signerInfo[2], 0x30, 'a digest algorithm'))[0]!)] ?? fail('The token uses an unsupported digest')
  const signedAttributes = expectTag(signerInfo[3], 0xa0, 'signed attributes')
  const attributes = readAttributes(signedAttributes)
  const messageDigest = attributes.get(OID.messageDigest) ?? fail('The token has no message-digest attribute')
  if (!equal(content(expectTag(messageDigest, 0x04, 'a digest')), createHash(digestName).update(tstInfo).digest())) fail('The token\'s message digest does not match its TSTInfo')
  const attributeType = attributes.get(OID.contentType) ?? fail('The token has no content-type attribute')
  if (oidOf(attributeType) !== OID.tstInfo) fail('The token\'s content-type attribute is not TSTInfo')
  assertSigningCertificate(attributes, signer)

  const algorithm = SIGNATURES[oidOf(kids(expectTag(signerInfo[4], 0x30, 'a signature algorithm'))[0]!)]
  if (algorithm === undefined) fail('The token uses an unsupported signature algorithm')
  // The signature covers the attributes as a SET OF (tag 0x31), not as the [0] they are sent in.
  const signedBytes = Buffer.concat([Buffer.from([0x31]), raw(signedAttributes).subarray(1)])
  const signatureValue = content(expectTag(signerInfo[5], 0x04, 'a signature value'))
  const certificate = new X509Certificate(signer)
  if (!verify(algorithm ?? digestName, signedBytes, certificate.publicKey, signatureValue)) fail('The token\'s signature does not verify with its certificate')

  const usage = extendedKeyUsage(signer)
  if (!usage?.critical || !usage.purposes.includes(OID_TIME_STAMPING)) fail('The token\'s certificate is not a TSA\'s (no critical extended key usage timeStamping)')
  if (info.genTime < new Date(certificate.validFrom) || info.genTime > new Date(certificate.validTo)) fail('The TSA certificate was not valid at the time stamped')
  return { genTime: info.genTime, signer }
}

function readTstInfo(der: Buffer): { hashAlgorithm: string; imprint: Buffer; genTime: Date; nonce: Buffer | null } {
  const fields = kids(expectTag(parseRoot(der), 0x30, 'a TSTInfo'))
  if (smallIntegerOf(fields[0]!) !== 1) fail('Unsupported TSTInfo version')
  const [algorithm, hashed] = kids(expectTag(fields[2], 0x30, 'a message imprint'))
  const hashAlgorithm = oidOf(kids(expectTag(algorithm, 0x30, 'a hash algorithm'))[0]!)
  const genTime = timeOf(expectTag(fields[4], 0x18, 'the GeneralizedTime genTime'))
  // After genTime: accuracy (SEQUENCE), ordering (BOOLEAN), then the nonce, the first INTEGER.
  const nonce = fields.slice(5).find((f) => f.tag === 0x02)
  return { hashAlgorithm, imprint: content(expectTag(hashed, 0x04, 'a hashed message')), genTime, nonce: nonce ? magnitude(content(nonce)) : null }
}

function readAttributes(set: Node): Map<string, Node> {
  const result = new Map<string, Node>()
  for (const attribute of kids(set)) {
    const [type, values] = kids(attribute)
    const first = kids(expectTag(values, 0x31, 'attribute values'))[0]
    if (first) result.set(oidOf(type!), first)
  }
  return result
}

/** SignerIdentifier: issuerAndSerialNumber, or [0] subjectKeyIdentifier. */
function findSigner(sid: Node, certificates: Buffer[]): Buffer | undefined {
  if (sid.tag === 0x80) {
    const keyId = content(sid)
    return certificates.find((cert) => {
      const extension = certificateExtensions(cert).find((e) => e.oid === OID.subjectKeyIdentifier)
      return extension ? equal(content(parseNode(extension.value)), keyId) : false
    })
  }
  const [issuer, serial] = kids(expectTag(sid, 0x30, 'a signer identifier'))
  return certificates.find((cert) => {
    const own = issuerAndSerial(cert)
    return equal(own.issuer, raw(issuer!)) && equal(own.serial, raw(serial!))
  })
}

/** ESS signing-certificate (v1: SHA-1) or -v2 (SHA-256 by default): its first hash must be the signer's. */
function assertSigningCertificate(attributes: Map<string, Node>, signer: Buffer): void {
  const v2 = attributes.get(OID.signingCertificateV2)
  const v1 = attributes.get(OID.signingCertificate)
  const value = v2 ?? v1 ?? fail('The token names no signing certificate (ESS)')
  const certs = expectTag(kids(value)[0], 0x30, 'ESS certificate ids')
  const first = kids(expectTag(kids(certs)[0], 0x30, 'an ESS certificate id'))
  let hashName = v2 ? 'sha256' : 'sha1'
  let hash = first[0]!
  if (v2 && hash.tag === 0x30) {
    hashName = DIGESTS[oidOf(kids(hash)[0]!)] ?? fail('The ESS certificate id uses an unsupported hash')
    hash = first[1]!
  }
  if (!equal(content(expectTag(hash, 0x04, 'a certificate hash')), createHash(hashName).update(signer).digest())) {
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
