// Builds the detached CMS SignedData (RFC 5652) that goes into a signature's /Contents, as PAdES
// baseline signatures want it (ETSI EN 319 122-1 / 319 142-1): signed attributes content-type,
// message-digest and ESS signing-certificate-v2, no signing-time (the claimed time is the
// signature dictionary's /M), SHA-256; and, for B-T, the RFC 3161 token over the signature value
// as the unsigned attribute signature-time-stamp-token. The RSA or ECDSA operation is done by
// node:crypto: @signpdf's P12Signer does it through node-forge, whose pure-JavaScript RSA costs
// tens of ms per signature (see bench/sign-pdf.bench.ts).
import { createHash, sign as cryptoSign, type KeyObject } from 'node:crypto'
import { issuerAndSerial } from '../certificates/x509-fields.ts'
import { contextConstructed, integer, nullValue, octetString, oid, sequence, setOf, tlv } from './der.ts'

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const

export interface CmsSigningKey {
  privateKey: KeyObject
  /** DER certificates, the signer's first. */
  certificates: Buffer[]
}

export interface SignedAttributes {
  /** The attributes encoded as the SET OF the signature covers. */
  encoded: Buffer
  /** The SignerInfo's signature value: what a signature timestamp is over. */
  signature: Buffer
}

/**
 * Signs the attributes over `digest` (SHA-256 of the bytes the /ByteRange covers).
 * @param signature Only for sizing: a stand-in for the real signature value.
 */
export function signAttributes(digest: Buffer, key: CmsSigningKey, signature?: Buffer): SignedAttributes {
  const encoded = setOf(
    sequence(oid(OID.contentType), setOf(oid(OID.data))),
    sequence(oid(OID.messageDigest), setOf(octetString(digest))),
    sequence(oid(OID.signingCertificateV2), setOf(signingCertificateV2(signerCertificate(key)))),
  )
  return { encoded, signature: signature ?? cryptoSign('sha256', encoded, key.privateKey) }
}

/** The ContentInfo, with the signature timestamp token as an unsigned attribute when there is one. */
export function assembleCms(key: CmsSigningKey, attributes: SignedAttributes, timestampToken?: Buffer): Buffer {
  const { issuer, serial } = issuerAndSerial(signerCertificate(key))
  const digestAlgorithm = sequence(oid(OID.sha256), nullValue())
  const isEc = key.privateKey.asymmetricKeyType === 'ec'
  const signerInfo = sequence(
    integer(1),
    sequence(issuer, serial),
    digestAlgorithm,
    // The message carries the signed SET OF under the [0] IMPLICIT tag.
    Buffer.concat([Buffer.from([0xa0]), attributes.encoded.subarray(1)]),
    isEc ? sequence(oid(OID.ecdsaWithSha256)) : sequence(oid(OID.rsaEncryption), nullValue()),
    octetString(attributes.signature),
    ...(timestampToken ? [tlv(0xa1, sequence(oid(OID.signatureTimeStampToken), setOf(timestampToken)))] : []),
  )
  const signedData = sequence(
    integer(1),
    setOf(digestAlgorithm),
    sequence(oid(OID.data)),
    contextConstructed(0, ...key.certificates),
    setOf(signerInfo),
  )
  return sequence(oid(OID.signedData), contextConstructed(0, signedData))
}

/** The whole CMS in one step, without a timestamp (B-B). */
export function createDetachedCms(digest: Buffer, key: CmsSigningKey, options: { signature?: Buffer; timestampToken?: Buffer } = {}): Buffer {
  return assembleCms(key, signAttributes(digest, key, options.signature), options.timestampToken)
}

/**
 * The size of the CMS this key produces without a timestamp (RSA signatures always have the
 * modulus length; an ECDSA one is at most 2 * (field size + 3) + 2 bytes), so /Contents can be
 * sized from the real certificate chain instead of a blind 8192.
 */
export function cmsSize(key: CmsSigningKey): number {
  let size = sizes.get(key)
  if (size === undefined) sizes.set(key, (size = computeCmsSize(key)))
  return size
}
// Per key object: a signing identity is opened once and kept (read-p12.ts's cache).
const sizes = new WeakMap<CmsSigningKey, number>()

function computeCmsSize(key: CmsSigningKey): number {
  const details = key.privateKey.asymmetricKeyDetails
  const signatureLength =
    key.privateKey.asymmetricKeyType === 'rsa'
      ? Math.ceil((details?.modulusLength ?? 4096) / 8)
      : 2 * (Math.ceil(curveBits(details?.namedCurve) / 8) + 3) + 2
  return createDetachedCms(Buffer.alloc(32), key, { signature: Buffer.alloc(signatureLength) }).length
}

/** The bytes the unsigned attribute adds around a token of this size (at most; DER lengths grow by steps). */
export function timestampAttributeOverhead(tokenSize: number): number {
  return tlv(0xa1, sequence(oid(OID.signatureTimeStampToken), setOf(Buffer.alloc(tokenSize)))).length - tokenSize + 4
}

function curveBits(curve: string | undefined): number {
  if (curve === 'prime256v1' || curve === 'P-256') return 256
  if (curve === 'secp384r1' || curve === 'P-384') return 384
  return 521
}

function signerCertificate(key: CmsSigningKey): Buffer {
  const [certificate] = key.certificates
  if (!certificate) throw new Error('A signing key needs its certificate')
  return certificate
}

/**
 * ESS SigningCertificateV2 (RFC 5035) with one ESSCertIDv2: the SHA-256 of the signer's
 * certificate (the hash algorithm is SHA-256 by DEFAULT, so DER leaves it out) and its
 * issuerSerial (the issuer as a directoryName GeneralName, [4] EXPLICIT).
 */
function signingCertificateV2(certificate: Buffer): Buffer {
  let encoded = essAttributes.get(certificate)
  if (!encoded) essAttributes.set(certificate, (encoded = encodeSigningCertificateV2(certificate)))
  return encoded
}
const essAttributes = new WeakMap<Buffer, Buffer>()

function encodeSigningCertificateV2(certificate: Buffer): Buffer {
  const { issuer, serial } = issuerAndSerial(certificate)
  const issuerSerial = sequence(sequence(tlv(0xa4, issuer)), serial)
  const essCertIdV2 = sequence(octetString(createHash('sha256').update(certificate).digest()), issuerSerial)
  return sequence(sequence(essCertIdV2))
}
