// node-forge builds X.509 and PKCS#12 structures well, but its RSA is pure JavaScript:
// generating a 2048-bit key takes seconds and a signature tens of ms. node:crypto does both
// natively, so keys are made and used there and only handed to forge where forge needs them.
import { generateKeyPairSync, privateEncrypt, constants, createPrivateKey, type KeyObject } from 'node:crypto'
import forge from 'node-forge'

export interface RsaKeyPair {
  privateKey: KeyObject
  forgePrivateKey: forge.pki.rsa.PrivateKey
  forgePublicKey: forge.pki.rsa.PublicKey
}

export function generateRsaKeyPair(bits = 2048): RsaKeyPair {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: bits })
  return fromNodePrivateKey(privateKey)
}

export function fromNodePrivateKey(privateKey: KeyObject): RsaKeyPair {
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
  const forgePrivateKey = forge.pki.privateKeyFromPem(pem) as forge.pki.rsa.PrivateKey
  const forgePublicKey = forge.pki.setRsaPublicKey(forgePrivateKey.n, forgePrivateKey.e)
  return { privateKey, forgePrivateKey, forgePublicKey }
}

export function fromForgePrivateKey(key: forge.pki.PrivateKey): KeyObject {
  return createPrivateKey(forge.pki.privateKeyToPem(key))
}

// DER prefix of DigestInfo { sha256, NULL } from RFC 8017 section 9.2, note 1.
const SHA256_DIGEST_INFO_PREFIX = Buffer.from('3031300d060960864801650304020105000420', 'hex')

/**
 * A stand-in for a forge private key whose `sign(md)` runs in node:crypto, so that
 * `certificate.sign(nativeSigner(key), sha256)` costs about a millisecond instead of tens.
 * forge hands over only the finished digest, hence the raw PKCS#1 v1.5 encryption of the
 * DigestInfo (which is exactly what RSASSA-PKCS1-v1_5 produces).
 */
export function nativeSigner(privateKey: KeyObject): forge.pki.rsa.PrivateKey {
  return {
    sign(md: forge.md.MessageDigest): string {
      if (md.algorithm !== 'sha256') throw new Error(`nativeSigner only signs SHA-256 digests, got ${md.algorithm}`)
      const digest = Buffer.from(md.digest().getBytes(), 'binary')
      const digestInfo = Buffer.concat([SHA256_DIGEST_INFO_PREFIX, digest])
      return privateEncrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING }, digestInfo).toString('binary')
    },
  } as unknown as forge.pki.rsa.PrivateKey
}
