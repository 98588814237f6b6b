import { issueUserCertificate, readP12, type CertificateAuthority } from '../certificates/index.ts'
import type { CertificateOperations } from './signature-library.ts'

/**
 * Certificate work done in this thread. Issuing generates an RSA key and a PKCS#12 (tens of ms);
 * a worker-backed implementation of the same interface can take it off the event loop.
 */
export function inProcessCertificateOperations(ca: CertificateAuthority): CertificateOperations {
  return {
    async issue(subject) {
      const issued = issueUserCertificate(ca, subject)
      return { p12: Buffer.from(issued.p12), password: issued.password, subject: issued.subject, notAfter: issued.notAfter }
    },
    async inspect(p12, password) {
      const identity = readP12(p12, password)
      return { subject: identity.subject, notAfter: identity.notAfter }
    },
  }
}
