// Opens a PKCS#12 file (uploaded by a user or issued by our CA) and returns what signing needs:
// the private key as a node:crypto KeyObject (native RSA) and the certificate chain, signer first.
import { createPublicKey, type KeyObject } from 'node:crypto'
import forge from 'node-forge'
import { fromForgePrivateKey } from './forge-keys.ts'
import { describeSubject } from './issue-user-certificate.ts'
import { ERR_CERT_EXPIRED, ERR_CERT_NOT_YET_VALID, ERR_CERT_NO_SIGNING_USAGE, ERR_P12_INVALID, ERR_P12_PASSWORD } from './errors.ts'

export interface SigningIdentity {
  privateKey: KeyObject
  /** DER certificates, the signer's own first, then the rest of the chain as found in the file. */
  certificates: Buffer[]
  subject: string
  notAfter: Date
}

export interface ReadP12Options {
  /** The moment the certificate must be valid at; defaults to now. */
  at?: Date
}

export function readP12(p12: Uint8Array, password: string, options: ReadP12Options = {}): SigningIdentity {
  const pfx = openPfx(p12, password)
  const privateKey = extractPrivateKey(pfx)
  const certs = extractCertificates(pfx)
  const own = findCertificateOfKey(certs, privateKey)
  assertUsableForSigning(own, options.at ?? new Date())
  const certificates = [own, ...certs.filter((c) => c !== own)].map(toDer)
  return { privateKey, certificates, subject: describeSubject(own), notAfter: own.validity.notAfter }
}

function openPfx(p12: Uint8Array, password: string): forge.pkcs12.Pkcs12Pfx {
  let asn1: forge.asn1.Asn1
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(p12).toString('binary')))
  } catch (cause) {
    throw ERR_P12_INVALID(undefined, { cause })
  }
  try {
    return forge.pkcs12.pkcs12FromAsn1(asn1, false, password)
  } catch (cause) {
    // forge reports a failed MAC check (the only way a wrong password shows) with this text;
    // anything else means the structure itself is not a PKCS#12.
    if (cause instanceof Error && /Invalid password|MAC could not be verified/i.test(cause.message)) {
      throw ERR_P12_PASSWORD(undefined, { cause })
    }
    throw ERR_P12_INVALID(undefined, { cause })
  }
}

function extractPrivateKey(pfx: forge.pkcs12.Pkcs12Pfx): KeyObject {
  const bags = [
    ...(pfx.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!] ?? []),
    ...(pfx.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!] ?? []),
  ]
  const key = bags.find((bag) => bag.key)?.key
  // Without a MAC forge cannot tell a wrong password from a good one: decryption then yields
  // garbage and no key. Both a missing key and that case end here.
  if (!key) throw ERR_P12_INVALID('The PKCS#12 file holds no private key the password opens')
  try {
    return fromForgePrivateKey(key)
  } catch (cause) {
    throw ERR_P12_INVALID('The private key in the PKCS#12 file cannot be used', { cause })
  }
}

function extractCertificates(pfx: forge.pkcs12.Pkcs12Pfx): forge.pki.Certificate[] {
  const bags = pfx.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? []
  return bags.flatMap((bag) => (bag.cert ? [bag.cert] : []))
}

function findCertificateOfKey(certs: forge.pki.Certificate[], privateKey: KeyObject): forge.pki.Certificate {
  const publicDer = createPublicKey(privateKey).export({ type: 'spki', format: 'der' })
  const own = certs.find((cert) => {
    const certDer = Buffer.from(forge.asn1.toDer(forge.pki.publicKeyToAsn1(cert.publicKey)).getBytes(), 'binary')
    return certDer.equals(publicDer)
  })
  if (!own) throw ERR_P12_INVALID('The PKCS#12 file has no certificate for its private key')
  return own
}

function assertUsableForSigning(cert: forge.pki.Certificate, at: Date): void {
  const keyUsage = cert.getExtension('keyUsage') as { digitalSignature?: boolean; nonRepudiation?: boolean } | null
  // RFC 5280: without the extension the key may be used for anything.
  if (keyUsage && !keyUsage.digitalSignature && !keyUsage.nonRepudiation) throw ERR_CERT_NO_SIGNING_USAGE()
  if (at.getTime() > cert.validity.notAfter.getTime()) {
    throw ERR_CERT_EXPIRED(`The certificate expired on ${cert.validity.notAfter.toISOString()}`)
  }
  if (at.getTime() < cert.validity.notBefore.getTime()) {
    throw ERR_CERT_NOT_YET_VALID(`The certificate is valid from ${cert.validity.notBefore.toISOString()}`)
  }
}

function toDer(cert: forge.pki.Certificate): Buffer {
  return Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), 'binary')
}
