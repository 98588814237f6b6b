// The parts of an X.509 certificate the PKI answers quote: issuer and subject names as DER,
// the serial number, and the public key's bits (hashed into OCSP CertIDs and key identifiers).
import { createHash, X509Certificate } from 'node:crypto'
import { bits, content, kids, parseNode, raw } from '../pdf/read-der.ts'

export interface CertificateFields {
  der: Buffer
  /** The serial's INTEGER, tag and length included. */
  serialDer: Buffer
  /** Lower-case hex without leading zeros: how serials are stored and compared. */
  serialHex: string
  issuerDer: Buffer
  subjectDer: Buffer
  /** The subjectPublicKey BIT STRING's value without its unused-bits byte. */
  publicKeyBits: Buffer
  /** SHA-1 of publicKeyBits: RFC 5280's key identifier, method 1 (forge makes the same). */
  keyIdentifier: Buffer
}

export function certificateFields(der: Buffer): CertificateFields {
  const tbs = kids(parseNode(der))[0]!
  const parts = kids(tbs)
  const fields = parts[0]!.tag === 0xa0 ? parts.slice(1) : parts // [0] version, when not v1
  const [serial, , issuer, , subject, spki] = fields
  const publicKeyBits = bits(kids(spki!)[1])
  return {
    der,
    serialDer: raw(serial!),
    serialHex: normalizeSerial(content(serial!).toString('hex')),
    issuerDer: raw(issuer!),
    subjectDer: raw(subject!),
    publicKeyBits,
    keyIdentifier: createHash('sha1').update(publicKeyBits).digest(),
  }
}

export function normalizeSerial(hex: string): string {
  return hex.toLowerCase().replace(/^(00)+(?=.)/, '')
}

export function pemToDer(pem: string): Buffer {
  return Buffer.from(new X509Certificate(pem).raw)
}
