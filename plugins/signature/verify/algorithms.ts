// Digest and signature algorithms by OID, mapped to what node:crypto calls them.
import { constants, createHash, verify, type KeyObject } from 'node:crypto'
import { kids, oidOf, type Node } from '../pdf/read-der.ts'

const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
}

/** Signature algorithms that name their own digest. */
const SIGNATURES_WITH_DIGEST: Record<string, string> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
}
const RSA_ENCRYPTION = '1.2.840.113549.1.1.1'
const EC_PUBLIC_KEY = '1.2.840.10045.2.1'
const RSA_PSS = '1.2.840.113549.1.1.10'
const ED25519 = '1.3.101.112'

export function digestName(algorithm: Node): string {
  const name = DIGESTS[oidOf(kids(algorithm)[0]!)]
  if (!name) throw new Error(`Unsupported digest algorithm ${oidOf(kids(algorithm)[0]!)}`)
  return name
}

export function digest(name: string, parts: Buffer[]): Buffer {
  const hash = createHash(name)
  for (const part of parts) hash.update(part)
  return hash.digest()
}

/**
 * Checks `signature` over `data` with `publicKey`. `digestAlgorithm` is the CMS SignerInfo's, used
 * when the signature algorithm is the bare key type (rsaEncryption, ecPublicKey).
 */
export function verifySignature(signatureAlgorithm: Node, data: Buffer, publicKey: KeyObject, signature: Buffer, digestAlgorithm?: string): boolean {
  const oid = oidOf(kids(signatureAlgorithm)[0]!)
  if (oid === ED25519) return verify(null, data, publicKey, signature)
  if (oid === RSA_PSS) {
    // RSASSA-PSS-params: [0] hashAlgorithm (default SHA-1), [2] saltLength (default 20).
    const params = kids(signatureAlgorithm)[1]
    const fields = params ? kids(params) : []
    const hashField = fields.find((f) => f.tag === 0xa0)
    const saltField = fields.find((f) => f.tag === 0xa2)
    const hash = hashField ? digestName(kids(hashField)[0]!) : 'sha1'
    const saltLength = saltField ? kids(saltField)[0]!.buf.readUIntBE(kids(saltField)[0]!.contentStart, kids(saltField)[0]!.contentEnd - kids(saltField)[0]!.contentStart) : 20
    return verify(hash, data, { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength }, signature)
  }
  const hash = SIGNATURES_WITH_DIGEST[oid] ?? ((oid === RSA_ENCRYPTION || oid === EC_PUBLIC_KEY) ? digestAlgorithm : undefined)
  if (!hash) throw new Error(`Unsupported signature algorithm ${oid}`)
  return verify(hash, data, publicKey, signature)
}
