// Opens a PKCS#12 file (uploaded by a user or issued by our CA) and returns what signing needs:
// the private key as a node:crypto KeyObject (native RSA and ECDSA) and the certificate chain,
// signer first. forge decrypts the bags (its PBKDF2 and ciphers cover what OpenSSL writes) but
// decodes only RSA keys and certificates; for others it leaves the decrypted ASN.1 in the bag,
// which node:crypto reads as PKCS#8 and X.509.
import { createHash, createPrivateKey, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import forge from 'node-forge'
import { fromForgePrivateKey } from './forge-keys.ts'
import { describeSubject } from './issue-user-certificate.ts'
import { signingKeyUsage } from './x509-fields.ts'
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

interface OpenedP12 { identity: SigningIdentity; own: Buffer; parsed: X509Certificate }

/**
 * Files opened lately in this thread, by the file's and the password's digest: forge's PBKDF2 and
 * AES in JavaScript cost 30-60 ms a file, most of a signature made through /api/sign. Only
 * successful openings are kept (a wrong password costs the full price every time), and the
 * certificate's validity is checked again at each use.
 */
const opened = new LRUCache<string, OpenedP12>({ max: 64, ttl: 10 * 60_000 })

export function readP12(p12: Uint8Array, password: string, options: ReadP12Options = {}): SigningIdentity {
  const key = createHash('sha256').update(p12).update('\0').update(password).digest('base64')
  let entry = opened.get(key)
  if (!entry) {
    const pfx = openPfx(p12, password)
    const privateKey = extractPrivateKey(pfx)
    const certs = extractCertificates(pfx)
    const own = findCertificateOfKey(certs, privateKey)
    const parsed = new X509Certificate(own)
    const certificates = [own, ...certs.filter((c) => c !== own)]
    entry = { identity: { privateKey, certificates, subject: subjectOf(own, parsed), notAfter: new Date(parsed.validTo) }, own, parsed }
    assertUsableForSigning(own, parsed, options.at ?? new Date())
    opened.set(key, entry)
    return entry.identity
  }
  assertUsableForSigning(entry.own, entry.parsed, options.at ?? new Date())
  return entry.identity
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

type Bag = forge.pkcs12.Bag & { asn1?: forge.asn1.Asn1 }

function extractPrivateKey(pfx: forge.pkcs12.Pkcs12Pfx): KeyObject {
  const bags: Bag[] = [
    ...(pfx.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!] ?? []),
    ...(pfx.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!] ?? []),
  ]
  const bag = bags.find((candidate) => candidate.key || candidate.asn1)
  // Without a MAC forge cannot tell a wrong password from a good one: decryption then yields
  // garbage and no key. Both a missing key and that case end here.
  if (!bag) throw ERR_P12_INVALID('The PKCS#12 file holds no private key the password opens')
  try {
    if (bag.key) return fromForgePrivateKey(bag.key)
    // An EC (or other non-RSA) key: forge kept the decrypted PrivateKeyInfo.
    return createPrivateKey({ key: derOf(bag.asn1!), format: 'der', type: 'pkcs8' })
  } catch (cause) {
    throw ERR_P12_INVALID('The private key in the PKCS#12 file cannot be used', { cause })
  }
}

function extractCertificates(pfx: forge.pkcs12.Pkcs12Pfx): Buffer[] {
  const bags: Bag[] = pfx.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? []
  return bags.flatMap((bag) => {
    if (bag.cert) return [derOf(forge.pki.certificateToAsn1(bag.cert))]
    return bag.asn1 ? [derOf(bag.asn1)] : []
  })
}

function findCertificateOfKey(certs: Buffer[], privateKey: KeyObject): Buffer {
  const publicDer = createPublicKey(privateKey).export({ type: 'spki', format: 'der' })
  const own = certs.find((der) => {
    try {
      return new X509Certificate(der).publicKey.export({ type: 'spki', format: 'der' }).equals(publicDer)
    } catch {
      return false
    }
  })
  if (!own) throw ERR_P12_INVALID('The PKCS#12 file has no certificate for its private key')
  return own
}

function assertUsableForSigning(der: Buffer, cert: X509Certificate, at: Date): void {
  const keyUsage = signingKeyUsage(der)
  // RFC 5280: without the extension the key may be used for anything.
  if (keyUsage && !keyUsage.digitalSignature && !keyUsage.nonRepudiation) throw ERR_CERT_NO_SIGNING_USAGE()
  const notBefore = new Date(cert.validFrom)
  const notAfter = new Date(cert.validTo)
  if (at.getTime() > notAfter.getTime()) {
    throw ERR_CERT_EXPIRED(`The certificate expired on ${notAfter.toISOString()}`)
  }
  if (at.getTime() < notBefore.getTime()) {
    throw ERR_CERT_NOT_YET_VALID(`The certificate is valid from ${notBefore.toISOString()}`)
  }
}

/**
 * "CN=Ada Lovelace, E=ada@example.org", as forge describes the certificates it reads (RSA);
 * for the others OpenSSL's names, with emailAddress shortened as forge does.
 */
function subjectOf(der: Buffer, cert: X509Certificate): string {
  try {
    return describeSubject(forge.pki.certificateFromAsn1(forge.asn1.fromDer(forge.util.createBuffer(der.toString('binary')))))
  } catch {
    return cert.subject.split('\n').map((line) => line.replace(/^emailAddress=/, 'E=')).join(', ')
  }
}

function derOf(asn1: forge.asn1.Asn1): Buffer {
  return Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary')
}
