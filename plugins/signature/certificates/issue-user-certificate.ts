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
  /** Where relying parties check the certificate: CRL distribution point and AIA (OCSP, caIssuers). */
  revocationUrls?: RevocationUrls
}

export interface RevocationUrls {
  crl: string
  ocsp: string
  caIssuers: string
}

export interface IssuedUserCertificate {
  p12: Buffer
  password: string
  subject: string
  notAfter: Date
  /** Lower-case hex, as the CA's register keeps it. */
  serialNumber: string
}

export function issueUserCertificate(ca: CertificateAuthority, options: IssueUserCertificateOptions): IssuedUserCertificate {
  const { name, email, validityYears = 3, now = new Date(), revocationUrls } = options
  const { keys, cert } = newKeyAndCertificate(now, validityYears)
  cert.setSubject([
    { name: 'commonName', value: name },
    // RFC 5280 wants IA5String; forge's default PrintableString cannot even hold '@'. (@types/node-forge
    // types valueTagClass as a Class; forge uses it as the universal tag number.)
    { name: 'emailAddress', value: email, valueTagClass: forge.asn1.Type.IA5STRING as unknown as forge.asn1.Class },
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
    ...(revocationUrls ? revocationExtensions(revocationUrls) : []),
  ])
  cert.sign(nativeSigner(ca.privateKey), forge.md.sha256.create())

  const password = randomBytes(18).toString('base64url')
  const asn1 = forge.pkcs12.toPkcs12Asn1(keys.forgePrivateKey, [cert, ca.certificate], password, {
    algorithm: 'aes256',
    friendlyName: name,
  })
  const p12 = Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary')
  return { p12, password, subject: describeSubject(cert), notAfter: cert.validity.notAfter, serialNumber: cert.serialNumber.toLowerCase() }
}

const OID_AUTHORITY_INFO_ACCESS = '1.3.6.1.5.5.7.1.1'
const OID_AD_OCSP = '1.3.6.1.5.5.7.48.1'
const OID_AD_CA_ISSUERS = '1.3.6.1.5.5.7.48.2'

/** forge knows the CRL distribution point by name; AIA it takes as the extension's DER value. */
function revocationExtensions(urls: RevocationUrls): object[] {
  const { asn1 } = forge
  const access = (method: string, url: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(method).getBytes()),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 6, false, url), // uniformResourceIdentifier
  ])
  const aia = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [access(OID_AD_OCSP, urls.ocsp), access(OID_AD_CA_ISSUERS, urls.caIssuers)])
  return [
    { name: 'cRLDistributionPoints', altNames: [{ type: 6, value: urls.crl }] },
    { id: OID_AUTHORITY_INFO_ACCESS, value: asn1.toDer(aia).getBytes() },
  ]
}

/** "CN=Ada Lovelace, E=ada@example.org": readable, and stable for a given certificate. */
export function describeSubject(cert: forge.pki.Certificate): string {
  return cert.subject.attributes
    .map((a) => `${a.shortName ?? a.name ?? a.type}=${String(a.value)}`)
    .join(', ')
}
