// Builds the detached CMS SignedData (RFC 5652) that goes into a signature's /Contents, with the
// RSA or ECDSA operation done by node:crypto. @signpdf's P12Signer does the same through
// node-forge, whose pure-JavaScript RSA costs tens of ms per signature (see bench/sign-pdf.bench.ts).
import { sign as cryptoSign, type KeyObject } from 'node:crypto'
import { children, contextConstructed, integer, nullValue, octetString, oid, readTlv, sequence, setOf, time } from './der.ts'

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
} as const

export interface CmsSigningKey {
  privateKey: KeyObject
  /** DER certificates, the signer's first. */
  certificates: Buffer[]
}

/**
 * @param digest SHA-256 of the bytes the /ByteRange covers.
 * @param signature Only for sizing: a stand-in for the real signature value.
 */
export function createDetachedCms(digest: Buffer, key: CmsSigningKey, signingTime: Date, signature?: Buffer): Buffer {
  const [signerCert] = key.certificates
  if (!signerCert) throw new Error('A signing key needs its certificate')
  const isEc = key.privateKey.asymmetricKeyType === 'ec'
  const digestAlgorithm = sequence(oid(OID.sha256), nullValue())
  const signedAttributes = [
    sequence(oid(OID.contentType), setOf(oid(OID.data))),
    sequence(oid(OID.signingTime), setOf(time(signingTime))),
    sequence(oid(OID.messageDigest), setOf(octetString(digest))),
  ]
  // The signature covers the attributes encoded as a SET OF (tag 0x31); the message carries the
  // same bytes under the [0] IMPLICIT tag.
  const attributesAsSet = setOf(...signedAttributes)
  const signatureValue = signature ?? cryptoSign('sha256', attributesAsSet, key.privateKey)
  const signerInfo = sequence(
    integer(1),
    issuerAndSerialNumber(signerCert),
    digestAlgorithm,
    Buffer.concat([Buffer.from([0xa0]), attributesAsSet.subarray(1)]),
    isEc ? sequence(oid(OID.ecdsaWithSha256)) : sequence(oid(OID.rsaEncryption), nullValue()),
    octetString(signatureValue),
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

/**
 * The exact size of the CMS this key produces (RSA signatures always have the modulus length;
 * an ECDSA one is at most 2 * (field size + 3) + 2 bytes), so /Contents can be sized from
 * the real certificate chain instead of a blind 8192.
 */
export function cmsSize(key: CmsSigningKey): number {
  const details = key.privateKey.asymmetricKeyDetails
  const signatureLength =
    key.privateKey.asymmetricKeyType === 'rsa'
      ? Math.ceil((details?.modulusLength ?? 4096) / 8)
      : 2 * (Math.ceil(curveBits(details?.namedCurve) / 8) + 3) + 2
  // A signing time after 2049 encodes two bytes longer; sizing with one keeps the bound safe.
  const latest = new Date(Date.UTC(2100, 0, 1))
  return createDetachedCms(Buffer.alloc(32), key, latest, Buffer.alloc(signatureLength)).length
}

function curveBits(curve: string | undefined): number {
  if (curve === 'prime256v1' || curve === 'P-256') return 256
  if (curve === 'secp384r1' || curve === 'P-384') return 384
  return 521
}

/** RFC 5652 SignerIdentifier: the issuer's Name and the serial number, copied from the certificate. */
function issuerAndSerialNumber(certificate: Buffer): Buffer {
  const tbs = children(certificate, readTlv(certificate, 0))[0]
  if (!tbs) throw new Error('Not an X.509 certificate')
  const fields = children(certificate, tbs)
  const hasVersion = fields[0]?.tag === 0xa0
  const serial = fields[hasVersion ? 1 : 0]
  const issuer = fields[hasVersion ? 3 : 2]
  if (!serial || !issuer) throw new Error('Not an X.509 certificate')
  return sequence(certificate.subarray(issuer.start, issuer.end), certificate.subarray(serial.start, serial.end))
}
