import { X509Certificate } from 'node:crypto'
// Certificate operations with plain inputs and outputs, so they can run in a worker thread.
import { loadCertificateAuthority, type SerializedCertificateAuthority } from './certificate-authority.ts'
import { issueUserCertificate, type RevocationUrls } from './issue-user-certificate.ts'
import { readP12 } from './read-p12.ts'

export function issueCertificate(ca: SerializedCertificateAuthority, subject: { name: string; email: string }, revocationUrls?: RevocationUrls) {
  const issued = issueUserCertificate(loadCertificateAuthority(ca), { ...subject, ...(revocationUrls ? { revocationUrls } : {}) })
  return { p12: new Uint8Array(issued.p12), password: issued.password, subject: issued.subject, notAfter: issued.notAfter, serialNumber: issued.serialNumber }
}

export function inspectP12(p12: Uint8Array, password: string) {
  const identity = readP12(p12, password)
  return { subject: identity.subject, notAfter: identity.notAfter, serialNumber: new X509Certificate(identity.certificates[0]!).serialNumber.toLowerCase() }
}
