// Issues a signing certificate for a person who has none of their own, packed as PKCS#12 so it
// can be stored and used exactly like a certificate the person uploads.
import { randomBytes } from 'node:crypto'
import forge from 'node-forge'
import type { CertificateAuthority } from './certificate-authority.ts'
import { newKeyAndCertificate } from './new-certificate.ts'
import { nativeSigner } from './forge-keys.ts'

/** Microsoft "Document Signing" and Adobe "Authentic Documents Trust": some validators look for them. */
export const OID_MS_DOCUMENT_SIGNING = '1.3.6.1.4.1.311.10.3.12'
export const OID_ADOBE_AUTHENTIC_DOCUMENTS = '1.2.840.113583.1.1.5'

export interface IssueUserCertificateOptions {
  name: string
  email: string
  /** Defaults to 3 years from now. */
  validityYears?: number
  now?: Date
}

export interface IssuedUserCertificate {
  p12: Buffer
  password: string
  subject: string
  notAfter: Date
}

export function issueUserCertificate(ca: CertificateAuthority, options: IssueUserCertificateOptions): IssuedUserCertificate {
  const { name, email, validityYears = 3, now = new Date() } = options
  const { keys, cert } = newKeyAndCertificate(now, validityYears)
  cert.setSubject([
    { name: 'commonName', value: name },
    { name: 'emailAddress', value: email },
  ])
  cert.setIssuer(ca.certificate.subject.attributes)
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
    {
      name: 'extKeyUsage',
      emailProtection: true,
      [OID_MS_DOCUMENT_SIGNING]: true,
      [OID_ADOBE_AUTHENTIC_DOCUMENTS]: true,
    },
    { name: 'subjectAltName', altNames: [{ type: 1, value: email }] },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.certificate.generateSubjectKeyIdentifier().getBytes() },
  ])
  cert.sign(nativeSigner(ca.privateKey), forge.md.sha256.create())

  const password = randomBytes(18).toString('base64url')
  const asn1 = forge.pkcs12.toPkcs12Asn1(keys.forgePrivateKey, [cert, ca.certificate], password, {
    algorithm: 'aes256',
    friendlyName: name,
  })
  const p12 = Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary')
  return { p12, password, subject: describeSubject(cert), notAfter: cert.validity.notAfter }
}

/** "CN=Ada Lovelace, E=ada@example.org": readable, and stable for a given certificate. */
export function describeSubject(cert: forge.pki.Certificate): string {
  return cert.subject.attributes
    .map((a) => `${a.shortName ?? a.name ?? a.type}=${String(a.value)}`)
    .join(', ')
}
